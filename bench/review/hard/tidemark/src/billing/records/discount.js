// A negotiated discount: per-mille off an account's lines, for one tariff code or for all of them,
// over a half-open validity.

import { ValidationError } from "../../core/errors.js";
import { pattern, required } from "../../core/validate.js";

export const MAX_DISCOUNT_PERMILLE = 500;

export function validateDiscount(input) {
  required(input, ["accountId", "permille", "validFrom"]);
  if (!Number.isInteger(input.permille) || input.permille <= 0 || input.permille > MAX_DISCOUNT_PERMILLE) {
    throw new ValidationError("permille", `must be a whole per-mille from 1 to ${MAX_DISCOUNT_PERMILLE}`);
  }
  const tariffCode = input.tariffCode ?? null;
  if (tariffCode !== null) pattern(tariffCode, /^T-[A-Z0-9-]+$/, "tariffCode");
  const validTo = input.validTo ?? null;
  if (validTo !== null && validTo <= input.validFrom) throw new ValidationError("validTo", "must be after validFrom");
  return { accountId: input.accountId, tariffCode, permille: input.permille, validFrom: input.validFrom, validTo, note: input.note ?? null };
}
