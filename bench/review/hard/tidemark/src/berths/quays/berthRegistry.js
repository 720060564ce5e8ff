// The berths along each quay. Two berths of one quay never share a centimetre: their stretches
// are half-open, so one may start where the other ends.

import { ConflictError } from "../../core/errors.js";
import { byNumber } from "../../core/sort.js";
import { validateBerth } from "../records/berth.js";

const stretchesOverlap = (a, b) => a.fromCm < b.toCm && b.fromCm < a.toCm;

export function createBerthRegistry(ctx, stores) {
  function addBerth(input) {
    const quay = stores.quays.get(input.quayId);
    const berth = validateBerth(input, quay);
    if (stores.berths.find(berth.id)) throw new ConflictError(`berth ${berth.id} exists`);
    const clash = stores.berths.list((b) => b.quayId === berth.quayId && stretchesOverlap(b, berth))[0];
    if (clash) throw new ConflictError(`berth ${berth.id} overlaps ${clash.id} on ${berth.quayId}`);
    return stores.berths.insert(berth);
  }

  /** A dredging survey gives a new depth. */
  function setDepth(berthId, depthCm) {
    const berth = stores.berths.get(berthId);
    const checked = validateBerth({ ...berth, depthCm }, stores.quays.get(berth.quayId));
    return stores.berths.update(berthId, (b) => ({ ...b, depthCm: checked.depthCm }));
  }

  return {
    addBerth,
    setDepth,
    findBerth: (id) => stores.berths.find(id),
    getBerth: (id) => stores.berths.get(id),
    listBerths: () => stores.berths.list(),
    /** The quay's berths from its north end southwards. */
    berthsOnQuay: (quayId) => stores.berths.list((b) => b.quayId === quayId).toSorted(byNumber("fromCm")),
  };
}
