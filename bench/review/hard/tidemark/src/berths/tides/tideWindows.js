// Tide windows: the times the water stands at or above a height, for deep-draught vessels that
// can only enter or leave near high water. Found by sampling the table every few minutes, which
// is what the pilots' own tables do; a window is half-open [start, end).

import { MINUTE } from "../../core/time.js";

export const SAMPLE_MINUTES = 5;

/** Windows within range where the tide is at least minHeightCm. */
export function windowsAbove(table, range, minHeightCm, stepMinutes = SAMPLE_MINUTES) {
  const step = stepMinutes * MINUTE;
  const windows = [];
  let open = null;
  for (let t = range.start; t < range.end; t += step) {
    const height = table.heightAt(t);
    const wet = height !== null && height >= minHeightCm;
    if (wet && open === null) open = t;
    if (!wet && open !== null) {
      windows.push({ start: open, end: t });
      open = null;
    }
  }
  if (open !== null) windows.push({ start: open, end: range.end });
  return windows;
}

/** The height a vessel needs to cross the bar: its draught plus the clearance, less the depth. */
export function neededTideCm(depthCm, draughtCm, clearanceCm) {
  return draughtCm + clearanceCm - depthCm;
}

/** The first window at or after t long enough for a passage of `minutes`; null when none. */
export function nextWindow(windows, t, minutes) {
  for (const w of windows) {
    const start = Math.max(w.start, t);
    if (w.end - start >= minutes * MINUTE) return { start, end: w.end };
  }
  return null;
}
