// A tide extreme: a high or low water of the Alvarim tide table, its time and its height in cm
// over chart datum. Heights may be negative (a spring low below datum).

import { ValidationError } from "../../core/errors.js";
import { oneOf, required } from "../../core/validate.js";

export const TIDE_KINDS = Object.freeze(["high", "low"]);

export function validateExtreme(input, at = 0) {
  required(input, ["at", "kind", "heightCm"]);
  if (!Number.isFinite(input.at)) throw new ValidationError(`extremes[${at}].at`, "must be epoch milliseconds");
  oneOf(input.kind, TIDE_KINDS, `extremes[${at}].kind`);
  if (!Number.isInteger(input.heightCm)) throw new ValidationError(`extremes[${at}].heightCm`, `expected whole cm, got ${input.heightCm}`);
  return { at: input.at, kind: input.kind, heightCm: input.heightCm };
}

/** Extremes in time order must alternate high and low, a high above its neighbouring lows. */
export function assertAlternating(extremes) {
  for (let i = 1; i < extremes.length; i += 1) {
    const prev = extremes[i - 1];
    const next = extremes[i];
    if (next.at <= prev.at) throw new ValidationError(`extremes[${i}].at`, "extremes must be in time order");
    if (next.kind === prev.kind) throw new ValidationError(`extremes[${i}].kind`, `two ${next.kind} waters in a row`);
    const high = next.kind === "high" ? next : prev;
    const low = next.kind === "high" ? prev : next;
    if (high.heightCm <= low.heightCm) throw new ValidationError(`extremes[${i}].heightCm`, "a high water must be above the low next to it");
  }
  return extremes;
}
