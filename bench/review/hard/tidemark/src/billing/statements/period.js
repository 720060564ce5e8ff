// Statement periods are calendar months (UTC), half-open: March is [1 March 00:00, 1 April 00:00).

import { ValidationError } from "../../core/errors.js";

export function monthPeriod(year, month) {
  if (!Number.isInteger(year) || !Number.isInteger(month) || month < 1 || month > 12) {
    throw new ValidationError("month", `not a month: ${year}-${month}`);
  }
  return { start: Date.UTC(year, month - 1, 1), end: Date.UTC(year, month, 1) };
}

/** The month a time falls in. */
export function monthOf(t) {
  const d = new Date(t);
  return monthPeriod(d.getUTCFullYear(), d.getUTCMonth() + 1);
}

/** The month before `period` (a month). */
export function previousMonth(period) {
  return monthOf(period.start - 1);
}

/** "2026-03" */
export function periodLabel(period) {
  const d = new Date(period.start);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
}

/** Parses "2026-03" into its month. */
export function parsePeriod(text) {
  const m = /^(\d{4})-(\d{2})$/.exec(text ?? "");
  if (!m) throw new ValidationError("period", `expected YYYY-MM, got ${text}`);
  return monthPeriod(Number(m[1]), Number(m[2]));
}
