// Stays as half-open intervals. The planned stay is [eta, etd); the actual stay runs from arrival to
// departure, or to `now` for a vessel still in port. Compare them with core/time.js only.

import { MINUTE, durationMinutes, intersection, overlaps } from "../../core/time.js";

export const plannedStay = (call) => ({ start: call.eta, end: call.etd });

/** From arrival to departure (or now); null for a call that has not arrived. */
export function actualStay(call, now) {
  if (!call.arrivedAt) return null;
  const end = call.departedAt ?? now;
  return end > call.arrivedAt ? { start: call.arrivedAt, end } : null;
}

/** The stay the port plans against: the actual one once the vessel is in, otherwise the planned one. */
export function effectiveStay(call, now) {
  return actualStay(call, now) ?? plannedStay(call);
}

/** The calls whose planned stay overlaps `window`. */
export const callsOverlapping = (calls, window) => calls.filter((call) => overlaps(plannedStay(call), window));

/** Minutes of a call's stay that fall inside `window` (0 when none). */
export function minutesWithin(call, window, now) {
  const stay = effectiveStay(call, now);
  const part = intersection(stay, window);
  return part ? durationMinutes(part) : 0;
}

/** A vessel still in port after her ETD: the berth planner asks the agent for a new one. */
export const isOverstaying = (call, now) => (call.state === "arrived" || call.state === "berthed") && now >= call.etd;

/** Whole minutes the vessel has overstayed (0 when she has not). */
export const overstayMinutes = (call, now) => (isOverstaying(call, now) ? Math.floor((now - call.etd) / MINUTE) : 0);
