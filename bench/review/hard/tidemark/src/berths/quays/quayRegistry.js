// The quays of the port. Quays change rarely (a survey, a new bollard), so there is no lock here:
// the harbour master's office is the only writer.

import { ConflictError } from "../../core/errors.js";
import { validateQuay } from "../records/quay.js";

export function createQuayRegistry(ctx, stores) {
  function addQuay(input) {
    const quay = validateQuay(input);
    if (stores.quays.find(quay.id)) throw new ConflictError(`quay ${quay.id} exists`);
    const row = stores.quays.insert(quay);
    ctx.log("info", "quay added", { quayId: row.id, lengthCm: row.lengthCm });
    return row;
  }

  /** A new survey: length and bollards replaced; berths must still fit on the quay. */
  function resurveyQuay(quayId, input) {
    const current = stores.quays.get(quayId);
    const quay = validateQuay({ ...current, ...input, id: quayId });
    const tooLong = stores.berths.list((b) => b.quayId === quayId && b.toCm > quay.lengthCm);
    if (tooLong.length > 0) throw new ConflictError(`berth ${tooLong[0].id} would lie beyond the quay's end`);
    return stores.quays.update(quayId, (q) => ({ ...q, lengthCm: quay.lengthCm, bollards: quay.bollards }));
  }

  return {
    addQuay,
    resurveyQuay,
    findQuay: (id) => stores.quays.find(id),
    getQuay: (id) => stores.quays.get(id),
    listQuays: () => stores.quays.list(),
  };
}
