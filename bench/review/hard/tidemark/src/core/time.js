// Times are epoch milliseconds (UTC) everywhere inside tidemark; ISO strings only at the edges.
// An interval is { start, end } and half-open: it contains start and not end.

import { ValidationError } from "./errors.js";

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export function interval(start, end) {
  if (!Number.isFinite(start) || !Number.isFinite(end)) throw new ValidationError("interval", "start and end must be epoch milliseconds");
  if (end <= start) throw new ValidationError("interval", "end must be after start");
  return { start, end };
}

export const overlaps = (a, b) => a.start < b.end && b.start < a.end;
export const contains = (outer, t) => outer.start <= t && t < outer.end;
export const covers = (outer, inner) => outer.start <= inner.start && inner.end <= outer.end;
export const durationMinutes = (iv) => (iv.end - iv.start) / MINUTE;

/** The part of `a` inside `b`, or null when they do not overlap. */
export function intersection(a, b) {
  const start = Math.max(a.start, b.start);
  const end = Math.min(a.end, b.end);
  return start < end ? { start, end } : null;
}

/** The UTC day (midnight) a time falls in. */
export const startOfDay = (t) => Math.floor(t / DAY) * DAY;

/** Whole or partial days an interval touches, counted the way the tariff counts them (a started day is a day). */
export const chargeableDays = (iv) => Math.ceil((iv.end - iv.start) / DAY);

export const parseIso = (s, field = "time") => {
  const t = Date.parse(s);
  if (Number.isNaN(t)) throw new ValidationError(field, `not an ISO time: ${s}`);
  return t;
};

export const toIso = (t) => new Date(t).toISOString();
