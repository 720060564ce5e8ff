// Calendar queries over the shift table. Released shifts are left out: they are history, not
// work. A window is half-open like every interval, so a shift ending at its start is not in it.

import { MINUTE, contains, intersection, overlaps } from "../../core/time.js";
import { byKeys, byNumber, byString } from "../../core/sort.js";
import { isLive } from "../records/shift.js";

const inStartOrder = byKeys(byNumber("start"), byString("id"));

/** A worker's live shifts, optionally only those overlapping a window, in start order (id breaks a tie). */
export function shiftsOf(shifts, workerId, window = null) {
  return shifts
    .list((s) => s.workerId === workerId && isLive(s) && (!window || overlaps(s, window)))
    .toSorted(inStartOrder);
}

/** Every live shift overlapping a window, whoever works it, in start order. */
export function shiftsIn(shifts, window) {
  return shifts.list((s) => isLive(s) && overlaps(s, window)).toSorted(inStartOrder);
}

/** The live shift a worker is on at time t, or null. */
export function shiftAt(shifts, workerId, t) {
  return shifts.list((s) => s.workerId === workerId && isLive(s) && contains(s, t))[0] ?? null;
}

/** Minutes a worker is rostered within a window (shifts clipped to it). */
export function rosteredMinutes(shifts, workerId, window) {
  let ms = 0;
  for (const shift of shiftsOf(shifts, workerId, window)) {
    const part = intersection(shift, window);
    if (part) ms += part.end - part.start;
  }
  return ms / MINUTE;
}
