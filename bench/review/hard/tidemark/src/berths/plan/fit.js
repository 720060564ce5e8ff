// Whether a vessel fits a berth at all, regardless of time: its type, the facilities that type
// needs, and its length (with the overhang the harbour master tolerates). Draught against depth
// depends on the tide and is the clearance check's business.

import { berthLengthCm } from "../records/berth.js";
import { missingFacilities } from "../records/vesselTypes.js";
import { overhangAllowed, overhangCm } from "../quays/layout.js";

/** Reasons the vessel cannot use the berth; empty when it can. */
export function fitReasons(berth, vessel) {
  const reasons = [];
  if (!berth.vesselTypes.includes(vessel.type)) reasons.push(`${berth.id} does not take ${vessel.type} vessels`);
  const missing = missingFacilities(vessel.type, berth.facilities);
  if (missing.length > 0) reasons.push(`${berth.id} lacks ${missing.join(", ")}`);
  if (!overhangAllowed(berth, vessel.lengthCm)) {
    reasons.push(`${vessel.lengthCm} cm is too long for ${berth.id} (${berthLengthCm(berth)} cm, overhang ${overhangCm(berth, vessel.lengthCm)} cm)`);
  }
  return reasons;
}

export const fits = (berth, vessel) => fitReasons(berth, vessel).length === 0;

/** Length left over on the berth, negative for an overhang; the allocation prefers tight fits. */
export const spareLengthCm = (berth, vessel) => berthLengthCm(berth) - vessel.lengthCm;

/** Every berth with whether the vessel fits it and why not, for the planners' "where could it go". */
export function fitReport(berths, vessel) {
  return berths.map((berth) => {
    const reasons = fitReasons(berth, vessel);
    return { berthId: berth.id, fits: reasons.length === 0, reasons, spareLengthCm: spareLengthCm(berth, vessel) };
  });
}
