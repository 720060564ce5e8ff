// What billing needs from the other modules, passed in as `deps` (billing never imports them).
//
// deps.calls.findCall(callId) → null, or a port call:
//   { id, vesselId, accountId, grossTonnage, lengthCm, berthedAt, departedAt }
//   grossTonnage is the vessel's GT (a whole number, no unit); lengthCm its length overall;
//   berthedAt/departedAt epoch ms (departedAt null while the vessel is alongside).
//
// deps.cargo.movesFor(callId) → the container moves worked for the call, in time order:
//   [{ containerId, kind, at }]  kind is "load", "discharge" or "restow"
//
// deps.cargo.reeferStaysFor(callId) → the reefer plug-ins for the call's boxes:
//   [{ containerId, pluggedAt, unpluggedAt }]  half-open, epoch ms
//
// A missing port is a start-up error, not something to find out at the first departure.

import { ValidationError } from "../core/errors.js";

const REQUIRED = Object.freeze({
  calls: ["findCall"],
  cargo: ["movesFor", "reeferStaysFor"],
});

export function checkPorts(deps = {}) {
  for (const [port, fns] of Object.entries(REQUIRED)) {
    for (const fn of fns) {
      if (typeof deps[port]?.[fn] !== "function") throw new ValidationError(`deps.${port}.${fn}`, "is required");
    }
  }
  return deps;
}

/** Ports for a billing that only invoices manual charges (back office, tests of the ledger). */
export function emptyPorts() {
  return {
    calls: { findCall: () => null },
    cargo: { movesFor: () => [], reeferStaysFor: () => [] },
  };
}
