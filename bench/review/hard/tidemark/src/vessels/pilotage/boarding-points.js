// Pilot boarding points off Alvarim. The pilot boat meets the vessel there and the pilot cons her
// in to the berth; the transit from the point to the harbour entrance sets when the pilot must be
// aboard. Deep-draught vessels must use the deep-water point west of the bar.

import { NotFoundError } from "../../core/errors.js";
import { MINUTE } from "../../core/time.js";

export const BOARDING_POINTS = Object.freeze([
  Object.freeze({ id: "PBP-S", name: "South (Pedra Negra)", transitMinutes: 35, maxDraughtCm: 900 }),
  Object.freeze({ id: "PBP-N", name: "North (Cabo Alvarim)", transitMinutes: 55, maxDraughtCm: 1_250 }),
  Object.freeze({ id: "PBP-D", name: "Deep water (west of the bar)", transitMinutes: 80, maxDraughtCm: 2_500 }),
]);

export function findBoardingPoint(id) {
  return BOARDING_POINTS.find((point) => point.id === id) ?? null;
}

export function getBoardingPoint(id) {
  const point = findBoardingPoint(id);
  if (!point) throw new NotFoundError("boarding point", id);
  return point;
}

/** The point with the shortest transit that admits the vessel's draught (draughts up to and including the limit). */
export function boardingPointFor(vessel) {
  const usable = BOARDING_POINTS.filter((point) => vessel.draughtCm <= point.maxDraughtCm);
  if (usable.length === 0) return null;
  return usable.reduce((best, point) => (point.transitMinutes < best.transitMinutes ? point : best));
}

/** When the pilot must be aboard for an inbound vessel due at the entrance at `eta`. */
export const boardingTime = (eta, point) => eta - point.transitMinutes * MINUTE;

/** Points a vessel may use, shortest transit first (for the booking screen's choice). */
export const usablePoints = (vessel) =>
  BOARDING_POINTS.filter((point) => vessel.draughtCm <= point.maxDraughtCm).toSorted((a, b) => a.transitMinutes - b.transitMinutes);
