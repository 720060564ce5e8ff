// A billing account: a shipping agent or line the port invoices. Accounts are closed, never
// removed: an invoice, a payment or a credit note always names an account that exists.

import { ValidationError } from "../../core/errors.js";
import { pattern, required } from "../../core/validate.js";

export const ACCOUNT_STATUS = Object.freeze({ OPEN: "open", CLOSED: "closed" });

export function validateAccount(input) {
  required(input, ["code", "name"]);
  pattern(input.code, /^[A-Z]{3,8}$/, "code");
  if (typeof input.name !== "string" || input.name.trim().length < 2) throw new ValidationError("name", "is too short");
  if (input.email !== undefined && input.email !== null) pattern(input.email, /^[^@\s]+@[^@\s]+$/, "email");
  if (input.paymentTermsDays !== undefined && input.paymentTermsDays !== null) {
    if (!Number.isInteger(input.paymentTermsDays) || input.paymentTermsDays < 0 || input.paymentTermsDays > 120) {
      throw new ValidationError("paymentTermsDays", "must be a whole number of days up to 120");
    }
  }
  if (input.vatExempt !== undefined && typeof input.vatExempt !== "boolean") throw new ValidationError("vatExempt", "must be true or false");
  return {
    code: input.code,
    name: input.name.trim(),
    email: input.email ?? null,
    paymentTermsDays: input.paymentTermsDays ?? null,
    vatExempt: input.vatExempt ?? false,
  };
}

export function newAccount(id, input, openedAt) {
  return { id, ...validateAccount(input), status: ACCOUNT_STATUS.OPEN, openedAt, closedAt: null };
}
