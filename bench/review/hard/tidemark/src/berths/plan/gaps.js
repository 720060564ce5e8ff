// Free windows of a berth: the parts of a range not taken by a booking or a closure. Busy
// intervals may come in any order and may overlap (a closure over a cancelled slot); the windows
// come back in time order, half-open, each at least `minMinutes` long.

import { MINUTE } from "../../core/time.js";
import { byNumber } from "../../core/sort.js";

export function freeWindows(busy, range, minMinutes = 0) {
  const windows = [];
  let cursor = range.start;
  for (const b of busy.toSorted(byNumber("start"))) {
    if (b.end <= cursor) continue;
    if (b.start >= range.end) break;
    if (b.start > cursor) windows.push({ start: cursor, end: b.start });
    cursor = Math.max(cursor, b.end);
  }
  if (cursor < range.end) windows.push({ start: cursor, end: range.end });
  return windows.filter((w) => w.end - w.start >= minMinutes * MINUTE);
}

/** Minutes of a range not taken: the sum of its free windows. */
export function freeMinutes(busy, range) {
  return freeWindows(busy, range).reduce((sum, w) => sum + (w.end - w.start) / MINUTE, 0);
}
