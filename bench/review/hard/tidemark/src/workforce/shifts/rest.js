// The rest rule: between the end of one shift and the start of the next a worker rests at least
// workforce.minRestMinutes. A new shift is checked against the shift before it and the one after.

import { DAY, MINUTE } from "../../core/time.js";
import { shiftsOf } from "./calendar.js";

/** Minutes from the end of the last shift before `span` to its start, or null if there is none. */
export function restBefore(ordered, span) {
  const previous = ordered.filter((s) => s.end <= span.start).at(-1);
  return previous ? (span.start - previous.end) / MINUTE : null;
}

/** Minutes from the end of `span` to the next shift's start, or null if there is none. */
export function restAfter(ordered, span) {
  const next = ordered.find((s) => s.start >= span.end);
  return next ? (next.start - span.end) / MINUTE : null;
}

/** "short_rest" when the span leaves too little rest on either side. */
export function checkRest(config, shifts, workerId, span) {
  const min = config.workforce.minRestMinutes;
  // The neighbours that matter end or start within a day of the span (the minimum rest is shorter).
  const around = shiftsOf(shifts, workerId, { start: span.start - DAY, end: span.end + DAY });
  const before = restBefore(around, span);
  const after = restAfter(around, span);
  const reasons = [];
  if (before !== null && before < min) reasons.push("short_rest");
  else if (after !== null && after < min) reasons.push("short_rest");
  return reasons;
}
