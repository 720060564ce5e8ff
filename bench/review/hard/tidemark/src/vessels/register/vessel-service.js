// The vessel register. A vessel is registered once per IMO number and never removed: calls,
// documents and invoices keep pointing at it after it leaves the port for good. Changes hold the
// vessel's lock and publish their event after the store write.

import { ConflictError } from "../../core/errors.js";
import { paginate } from "../../core/paging.js";
import { normaliseImo } from "./imo.js";
import { applyVesselPatch, validateVesselInput } from "./vessel-record.js";
import { createVesselStore } from "./vessel-store.js";

export function createRegister(ctx) {
  const { store, nextId, indexImo, idForImo, load } = createVesselStore();
  // Registration is keyed by IMO before the vessel has an id, so it serialises on its own key.
  const REGISTER_KEY = "vessel:register";

  async function registerVessel(input) {
    const fields = validateVesselInput(input);
    return ctx.locks.withLock(REGISTER_KEY, async () => {
      if (idForImo(fields.imo)) throw new ConflictError(`IMO ${fields.imo} is already registered`);
      const vessel = store.insert({ id: nextId(), ...fields, registeredAt: ctx.clock.now() });
      indexImo(vessel.imo, vessel.id);
      ctx.events.publish("vessel.registered", { vesselId: vessel.id, imo: vessel.imo });
      return vessel;
    });
  }

  async function updateVessel(id, patch, expectVersion) {
    return ctx.locks.withLock(`vessel:${id}`, async () => {
      const current = store.get(id);
      const next = store.update(id, () => applyVesselPatch(current, patch), expectVersion);
      ctx.events.publish("vessel.updated", { vesselId: id, imo: next.imo, fields: Object.keys(patch) });
      return next;
    });
  }

  const findVessel = (id) => store.find(id);
  const getVessel = (id) => store.get(id);

  function findByImo(imo) {
    const id = idForImo(normaliseImo(imo));
    return id ? store.find(id) : null;
  }

  /** Vessels in id order, optionally only one flag or type. */
  function listVessels({ flag, type } = {}, page = {}) {
    const rows = store.list((v) => (!flag || v.flag === flag) && (!type || v.type === type));
    return paginate(rows, page, ctx.config);
  }

  return { registerVessel, updateVessel, findVessel, getVessel, findByImo, listVessels, load, count: () => store.size };
}
