// A payment received from an account, and where it went. allocations: [{ invoiceId, amountMinor }];
// what no open invoice took stays on the payment as unallocatedMinor (credit) until applyCredit
// places it on a later invoice.

import { ValidationError } from "../../core/errors.js";
import { assertMinor } from "../../core/money.js";
import { required } from "../../core/validate.js";

export const PAYMENT_METHODS = Object.freeze(["transfer", "card", "cash"]);

export function validatePayment(input) {
  required(input, ["accountId", "amountMinor", "reference"]);
  assertMinor(input.amountMinor, "amountMinor");
  if (input.amountMinor <= 0) throw new ValidationError("amountMinor", "must be positive");
  const method = input.method ?? "transfer";
  if (!PAYMENT_METHODS.includes(method)) throw new ValidationError("method", `must be one of ${PAYMENT_METHODS.join(", ")}`);
  if (input.receivedAt !== undefined && !Number.isInteger(input.receivedAt)) throw new ValidationError("receivedAt", "must be epoch milliseconds");
  return input;
}

export function newPayment(id, input, { allocations, unallocatedMinor, receivedAt }) {
  return {
    id,
    accountId: input.accountId,
    amountMinor: input.amountMinor,
    reference: input.reference,
    method: input.method ?? "transfer",
    receivedAt,
    allocations,
    unallocatedMinor,
  };
}
