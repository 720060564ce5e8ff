// Bollards a vessel makes fast to. A berth owns the bollards in its stretch [fromCm, toCm); the
// mooring plan picks a bow and a stern bollard nearest the vessel's ends and checks their safe
// working load against what the vessel's lines need.

import { ValidationError } from "../../core/errors.js";
import { vesselSpan } from "./layout.js";

// Line pull a vessel needs per bollard, by length: a rule of thumb of the Alvarim mooring gang.
const PULL_KG_PER_METRE = 400;

export function bollardsOfBerth(quay, berth) {
  return quay.bollards.filter((b) => berth.fromCm <= b.atCm && b.atCm < berth.toCm);
}

function nearest(bollards, atCm) {
  let best = null;
  for (const b of bollards) {
    if (!best || Math.abs(b.atCm - atCm) < Math.abs(best.atCm - atCm)) best = b;
  }
  return best;
}

export function requiredPullKg(lengthCm) {
  return Math.ceil(lengthCm / 100) * PULL_KG_PER_METRE;
}

/** Bow and stern bollards for a vessel at a berth; throws when the quay cannot hold it. */
export function mooringPlan(quay, berth, lengthCm) {
  const span = vesselSpan(berth, lengthCm);
  const usable = quay.bollards.filter((b) => b.atCm >= span.fromCm - 1000 && b.atCm <= span.toCm + 1000);
  if (usable.length < 2) throw new ValidationError("bollards", `${berth.id} has fewer than two bollards within reach`);
  const bow = nearest(usable, span.fromCm);
  const stern = nearest(usable.filter((b) => b.id !== bow.id), span.toCm);
  const pullKg = requiredPullKg(lengthCm);
  const weak = [bow, stern].filter((b) => b.swlKg < pullKg);
  if (weak.length > 0) throw new ValidationError("bollards", `${weak[0].id} holds ${weak[0].swlKg} kg, the lines need ${pullKg} kg`);
  return { bow: bow.id, stern: stern.id, pullKg };
}
