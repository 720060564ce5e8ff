// The fatigue report the safety officer reads each week: per worker, the longest shift, the
// shortest rest between two consecutive shifts, and the minutes worked, over a period. Workers
// who broke a limit come first.

import { MINUTE, durationMinutes, overlaps } from "../../core/time.js";
import { byKeys, byString } from "../../core/sort.js";
import { shiftsIn } from "../shifts/calendar.js";

// A worker with a single shift has no rest to measure (null): they sort after every measured rest.
const restOrder = (a, b) => (a.shortestRestMinutes ?? Infinity) - (b.shortestRestMinutes ?? Infinity) || 0;
const worstFirst = byKeys((a, b) => b.breaches.length - a.breaches.length, restOrder, byString("workerId"));

export function fatigueReport(config, stores, period) {
  const { maxShiftMinutes, minRestMinutes } = config.workforce;
  const byWorker = new Map();
  for (const shift of shiftsIn(stores.shifts, period)) {
    byWorker.set(shift.workerId, [...(byWorker.get(shift.workerId) ?? []), shift]);
  }
  const rows = [];
  for (const [workerId, shifts] of byWorker) {
    let longest = 0;
    let shortestRest = Infinity;
    let worked = 0;
    shifts.forEach((shift, i) => {
      longest = Math.max(longest, durationMinutes(shift));
      worked += durationMinutes(shift);
      if (i > 0) shortestRest = Math.min(shortestRest, (shift.start - shifts[i - 1].end) / MINUTE);
    });
    const breaches = [];
    if (longest > maxShiftMinutes) breaches.push("long_shift");
    if (shortestRest < minRestMinutes) breaches.push("short_rest");
    rows.push({
      workerId,
      shifts: shifts.length,
      workedMinutes: worked,
      longestShiftMinutes: longest,
      shortestRestMinutes: Number.isFinite(shortestRest) ? shortestRest : null,
      breaches,
    });
  }
  return rows.toSorted(worstFirst);
}

/** The rows that need the safety officer's attention. */
export const breachesOnly = (rows) => rows.filter((r) => r.breaches.length > 0);

export const inPeriod = (period) => (shift) => overlaps(shift, period);
