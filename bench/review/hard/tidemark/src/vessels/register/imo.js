// IMO ship identification numbers: seven digits, the last a check digit. The first six are
// weighted 7, 6, 5, 4, 3, 2 and summed; the last digit of the sum must equal the seventh. The
// number survives renaming, reflagging and a change of owner, so the register keys vessels on it.

import { ValidationError } from "../../core/errors.js";

const WEIGHTS = [7, 6, 5, 4, 3, 2];

/** The check digit of the first six digits of an IMO number. */
export function imoCheckDigit(sixDigits) {
  if (!/^\d{6}$/.test(sixDigits)) throw new ValidationError("imo", "expected six digits");
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(sixDigits[i]) * WEIGHTS[i];
  return sum % 10;
}

/** "IMO 9074729", "imo9074729" and " 9074729 " all become "9074729"; anything else stays as given. */
export function normaliseImo(input) {
  if (typeof input === "number") input = String(input);
  if (typeof input !== "string") return input;
  return input.trim().replace(/^imo\s*/i, "");
}

export function isValidImo(input) {
  const imo = normaliseImo(input);
  if (typeof imo !== "string" || !/^\d{7}$/.test(imo)) return false;
  return imoCheckDigit(imo.slice(0, 6)) === Number(imo[6]);
}

/** The normalised number, or a ValidationError saying what is wrong with it. */
export function assertImo(input, field = "imo") {
  const imo = normaliseImo(input);
  if (typeof imo !== "string" || !/^\d{7}$/.test(imo)) throw new ValidationError(field, `expected seven digits, got ${input}`);
  const expected = imoCheckDigit(imo.slice(0, 6));
  if (expected !== Number(imo[6])) throw new ValidationError(field, `check digit of ${imo} should be ${expected}`);
  return imo;
}

export const formatImo = (imo) => `IMO ${imo}`;
