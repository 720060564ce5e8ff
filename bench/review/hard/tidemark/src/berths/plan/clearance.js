// Under-keel clearance: the water under a vessel's keel is the berth's dredged depth plus the
// tide over chart datum, less the vessel's draught. It must stay at or above berthing.ukcMinCm at
// the lowest tide of the whole stay, not just on arrival.

import { ValidationError } from "../../core/errors.js";
import { MINUTE } from "../../core/time.js";

export const underKeelCm = (depthCm, tideCm, draughtCm) => depthCm + tideCm - draughtCm;

/** The clearance at the stay's lowest water, or null when the tide table does not cover the stay. */
export function clearanceDuring(tides, berth, draughtCm, stay) {
  const lowest = tides.lowestDuring(stay);
  if (!lowest) return null;
  return { at: lowest.at, tideCm: lowest.heightCm, ukcCm: underKeelCm(berth.depthCm, lowest.heightCm, draughtCm) };
}

export function assertClearance(ctx, tides, berth, draughtCm, stay) {
  const clearance = clearanceDuring(tides, berth, draughtCm, stay);
  if (!clearance) throw new ValidationError("start", "no tide table covers the stay");
  const minCm = ctx.config.berthing.ukcMinCm;
  if (clearance.ukcCm < minCm) {
    throw new ValidationError("draughtCm", `${clearance.ukcCm} cm under the keel at ${berth.id} on the lowest tide, ${minCm} cm needed`);
  }
  return clearance;
}

/**
 * The clearance through a stay, sampled every `stepMinutes`, for the pilots' notes: a list of
 * { at, tideCm, ukcCm }; points outside the tide table are left out.
 */
export function clearanceProfile(tides, berth, draughtCm, stay, stepMinutes = 30) {
  const points = [];
  for (let t = stay.start; t < stay.end; t += stepMinutes * MINUTE) {
    const tideCm = tides.heightAt(t);
    if (tideCm !== null) points.push({ at: t, tideCm, ukcCm: underKeelCm(berth.depthCm, tideCm, draughtCm) });
  }
  return points;
}

/** The deepest draught a berth takes over a stay with the port's clearance; null without tides. */
export function maxDraughtCm(ctx, tides, berth, stay) {
  const lowest = tides.lowestDuring(stay);
  if (!lowest) return null;
  return berth.depthCm + lowest.heightCm - ctx.config.berthing.ukcMinCm;
}
