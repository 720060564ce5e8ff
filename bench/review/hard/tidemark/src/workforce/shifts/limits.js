// How long one shift may be, from workforce.maxShiftMinutes.

import { MINUTE, covers, durationMinutes } from "../../core/time.js";

export function checkLength(config, span) {
  return durationMinutes(span) > config.workforce.maxShiftMinutes ? ["shift_too_long"] : [];
}

/** Splits an operation into consecutive shifts no longer than the maximum (the last may be shorter). */
export function splitIntoShifts(config, span) {
  const stepMs = config.workforce.maxShiftMinutes * MINUTE;
  const parts = [];
  for (let start = span.start; start < span.end; start += stepMs) {
    parts.push({ start, end: Math.min(start + stepMs, span.end) });
  }
  return parts;
}

/** A shift must lie inside the operation it works (the vessel is not alongside outside it). */
export function fitsOperation(operation, span) {
  return covers({ start: operation.start, end: operation.end }, span);
}

/** The longest of a list of shifts, in minutes (0 for none). */
export function longestShiftMinutes(shifts) {
  return shifts.reduce((max, s) => Math.max(max, durationMinutes(s)), 0);
}
