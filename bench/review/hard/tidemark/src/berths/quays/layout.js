// Where a moored vessel lies along its quay. A vessel lies from its berth's north end, so its span
// is [berth.fromCm, berth.fromCm + lengthCm), half-open like the berth's stretch. It may overhang
// the berth's end by up to a tenth of its length when the neighbouring berth is free; the fender
// check, not this file, decides whether a neighbour is too close.

import { berthLengthCm } from "../records/berth.js";

export const MAX_OVERHANG_PERMILLE = 100;

export function vesselSpan(berth, lengthCm) {
  return { fromCm: berth.fromCm, toCm: berth.fromCm + lengthCm };
}

/** Clear water between two spans along the quay; 0 or less when they touch or overlap. */
export function gapBetweenCm(a, b) {
  if (a.fromCm <= b.fromCm) return b.fromCm - a.toCm;
  return a.fromCm - b.toCm;
}

/** How far a vessel of this length would reach beyond the berth's end (0 when it fits). */
export function overhangCm(berth, lengthCm) {
  return Math.max(0, lengthCm - berthLengthCm(berth));
}

export function overhangAllowed(berth, lengthCm) {
  return overhangCm(berth, lengthCm) * 1000 <= lengthCm * MAX_OVERHANG_PERMILLE;
}

/** The berths of a quay a span reaches into, other than its own. */
export function neighboursReached(berths, berth, span) {
  return berths.filter((b) => b.id !== berth.id && b.quayId === berth.quayId && b.fromCm < span.toCm && span.fromCm < b.toCm);
}
