// The vessel types a berth can be opened to. A berth lists the types it takes; the allocation
// refuses a vessel whose type the berth does not list, whatever its length and draught.

import { ValidationError } from "../../core/errors.js";

export const VESSEL_TYPES = Object.freeze(["container", "bulk", "tanker", "roro", "cruise", "general", "reefer"]);

// What the quay has to offer each type beyond length and depth: a ramp for ro-ro, shore power
// plugs for reefers, a gangway for cruise passengers. Berths name these in `facilities`.
export const REQUIRED_FACILITIES = Object.freeze({
  container: Object.freeze(["crane"]),
  bulk: Object.freeze([]),
  tanker: Object.freeze(["pipeline"]),
  roro: Object.freeze(["ramp"]),
  cruise: Object.freeze(["gangway"]),
  general: Object.freeze([]),
  reefer: Object.freeze(["shore-power"]),
});

export const FACILITIES = Object.freeze(["crane", "pipeline", "ramp", "gangway", "shore-power"]);

export function assertVesselType(type, field = "vesselType") {
  if (!VESSEL_TYPES.includes(type)) throw new ValidationError(field, `unknown vessel type ${type}`);
  return type;
}

/** The facilities a type needs that the berth lacks (empty when the berth serves it). */
export function missingFacilities(type, facilities) {
  return (REQUIRED_FACILITIES[type] ?? []).filter((f) => !facilities.includes(f));
}

/** A berth serves a type when it lists the type and has every facility the type needs. */
export function servesType(berth, type) {
  return berth.vesselTypes.includes(type) && missingFacilities(type, berth.facilities).length === 0;
}
