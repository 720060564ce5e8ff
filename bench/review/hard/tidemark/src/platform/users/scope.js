// Applies an authorize() scope to records that belong to a vessel. Staff ("all") see everything;
// an agent ("own") sees a record only when the vessel's agentId is the agent's own. Vessels come
// through the vessels port: deps.vessels.findVessel(id) → { id, agentId, ... } | null.

import { NotFoundError } from "../../core/errors.js";

export function createScope(vessels) {
  const ownsVessel = (user, vesselId) => {
    if (!user.agentId) return false;
    const vessel = vessels.findVessel(vesselId);
    return vessel !== null && vessel.agentId === user.agentId;
  };

  return {
    ownsVessel,
    /** Keeps the records the user may see; order is kept, the array handed in is not touched. */
    filter(scope, user, records, vesselIdOf = (r) => r.vesselId) {
      if (scope === "all") return records;
      return records.filter((record) => ownsVessel(user, vesselIdOf(record)));
    },
    /** A record outside the scope is reported as missing, so an agent cannot probe for ids. */
    assertVisible(scope, user, record, kind, vesselIdOf = (r) => r.vesselId) {
      if (scope === "all") return record;
      if (!ownsVessel(user, vesselIdOf(record))) throw new NotFoundError(kind, record.id);
      return record;
    },
  };
}
