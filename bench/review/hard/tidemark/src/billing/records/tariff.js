// A tariff version: the rate of one tariff code ("T-BERTH") over a half-open validity. A code has
// several versions over time; at most one is in force at any moment.

import { ValidationError } from "../../core/errors.js";
import { assertMinor } from "../../core/money.js";
import { oneOf, pattern, required } from "../../core/validate.js";

/** How a tariff counts what it charges for. */
export const BASES = Object.freeze({
  GT_CALL: "gt-call", // per gross ton, once per call
  METRE_DAY: "metre-day", // per started metre of length, per started day alongside
  MOVE: "move", // per container move
  REEFER_DAY: "reefer-day", // per started day a reefer is plugged in
  VALUE: "value", // per mille of a declared value (wharfage)
});

/** Bases priced in minor units per unit; the value basis is priced in per-mille. */
export const UNIT_BASES = Object.freeze([BASES.GT_CALL, BASES.METRE_DAY, BASES.MOVE, BASES.REEFER_DAY]);

export const OPEN_END = Number.MAX_SAFE_INTEGER;

export function validateTariff(input) {
  required(input, ["code", "description", "basis", "validFrom"]);
  pattern(input.code, /^T-[A-Z0-9]+(-[A-Z0-9]+)*$/, "code");
  oneOf(input.basis, Object.values(BASES), "basis");
  if (!Number.isInteger(input.validFrom)) throw new ValidationError("validFrom", "must be epoch milliseconds");
  const validTo = input.validTo ?? null;
  if (validTo !== null && (!Number.isInteger(validTo) || validTo <= input.validFrom)) {
    throw new ValidationError("validTo", "must be after validFrom");
  }
  if (input.basis === BASES.VALUE) {
    if (!Number.isInteger(input.ratePermille) || input.ratePermille <= 0) throw new ValidationError("ratePermille", "must be a positive whole per-mille");
    if (input.rateMinor !== undefined && input.rateMinor !== null) throw new ValidationError("rateMinor", "not used by the value basis");
  } else {
    assertMinor(input.rateMinor, "rateMinor");
    if (input.rateMinor <= 0) throw new ValidationError("rateMinor", "must be positive");
  }
  return {
    code: input.code,
    description: input.description,
    basis: input.basis,
    rateMinor: input.basis === BASES.VALUE ? null : input.rateMinor,
    ratePermille: input.basis === BASES.VALUE ? input.ratePermille : null,
    validFrom: input.validFrom,
    validTo,
  };
}

/** The version's validity as an interval; an open-ended version runs to OPEN_END. */
export const validityOf = (tariff) => ({ start: tariff.validFrom, end: tariff.validTo ?? OPEN_END });
