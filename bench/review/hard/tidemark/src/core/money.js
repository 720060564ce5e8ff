// Money is an integer count of minor units (cents) in a field ending in `Minor`. Rounding happens
// once per line, half to even, through roundMinor; a total is the sum of its rounded lines.

import { ValidationError } from "./errors.js";

export function assertMinor(value, field = "amountMinor") {
  if (!Number.isSafeInteger(value)) throw new ValidationError(field, `expected whole minor units, got ${value}`);
  return value;
}

/** Half to even ("banker's rounding") of a fractional amount of minor units. */
export function roundMinor(x) {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (Math.abs(diff - 0.5) < 1e-9) return floor % 2 === 0 ? floor : floor + 1;
  return Math.round(x);
}

/** A rate in per-mille applied to an amount, rounded once. */
export function permilleOf(amountMinor, permille) {
  return roundMinor((amountMinor * permille) / 1000);
}

export function sumMinor(values) {
  let total = 0;
  for (const v of values) total += assertMinor(v);
  return total;
}

/** Splits an amount into `parts` shares whose sum is the amount; the first shares take the remainder. */
export function allocateMinor(amountMinor, parts) {
  assertMinor(amountMinor);
  if (!Number.isInteger(parts) || parts <= 0) throw new ValidationError("parts", "must be a positive integer");
  const base = Math.trunc(amountMinor / parts);
  const rest = amountMinor - base * parts;
  return Array.from({ length: parts }, (_, i) => base + (i < Math.abs(rest) ? Math.sign(rest) : 0));
}

/** "1 234,50 EUR" — the port prints amounts the Portuguese way. */
export function formatMinor(amountMinor, currency = "EUR") {
  const sign = amountMinor < 0 ? "-" : "";
  const abs = Math.abs(amountMinor);
  const units = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, " ");
  const cents = String(abs % 100).padStart(2, "0");
  return `${sign}${units},${cents} ${currency}`;
}
