// One vessel as the API shows it, with its calls. The vessel comes through the vessels port
// (findVessel → { id, name, imo, agentId, lengthCm, beamCm, draftCm } | null); an agent asking for a
// vessel of another agency gets the same 404 as for one that does not exist.

import { NotFoundError } from "../../core/errors.js";
import { authorize } from "../users/permissions.js";

export function createVesselsQuery(ctx, { vessels, scope }) {
  function vesselFor(user, id) {
    const allowed = authorize(user, "vessels:read");
    const vessel = vessels.findVessel(id);
    if (!vessel) throw new NotFoundError("vessel", id);
    return scope.assertVisible(allowed, user, vessel, "vessel", (v) => v.id);
  }

  /** The vessel and its calls, latest arrival first (the vessel screen reads top-down). */
  function vesselWithCalls(user, id) {
    const vessel = vesselFor(user, id);
    const calls = vessels
      .listCalls()
      .filter((c) => c.vesselId === vessel.id)
      .toSorted((a, b) => b.eta - a.eta || (a.id < b.id ? -1 : 1));
    return { ...vessel, calls };
  }

  return { vesselFor, vesselWithCalls };
}
