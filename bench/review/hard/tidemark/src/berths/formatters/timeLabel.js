// Short time labels for berth sheets: "02/03 14:30" in UTC, the port's working time. Stays are
// printed "02/03 14:30 → 03/03 06:00", the end being the minute the vessel is gone.

import { MINUTE } from "../../core/time.js";

const pad = (n) => String(n).padStart(2, "0");

export function timeLabel(t) {
  const d = new Date(t);
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

export function stayLabel(stay) {
  return `${timeLabel(stay.start)} → ${timeLabel(stay.end)}`;
}

/** "2 d 4 h", "5 h 30 min": a stay's length for the sheet. */
export function durationLabel(minutes) {
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = Math.round(minutes % 60);
  const parts = [];
  if (days) parts.push(`${days} d`);
  if (hours) parts.push(`${hours} h`);
  if (mins || parts.length === 0) parts.push(`${mins} min`);
  return parts.join(" ");
}

/** "2026-03-02", the UTC day of a time, for file names and sheet titles. */
export function dayLabel(t) {
  return new Date(t).toISOString().slice(0, 10);
}

/** "in 3 h 15 min" / "5 min ago" relative to now, for the quay board. */
export function relativeLabel(t, now) {
  const minutes = Math.round((t - now) / MINUTE);
  if (minutes === 0) return "now";
  return minutes > 0 ? `in ${durationLabel(minutes)}` : `${durationLabel(-minutes)} ago`;
}
