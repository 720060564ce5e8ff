// A charge: one chargeable thing (a call's dues, a stay's berthage, the moves of a call) priced by
// a tariff version. Charges wait "open" until an invoice is posted for them.

import { ValidationError } from "../../core/errors.js";
import { oneOf, required } from "../../core/validate.js";

export const CHARGE_STATUS = Object.freeze({ OPEN: "open", BILLED: "billed", CANCELLED: "cancelled" });
export const SOURCE_KINDS = Object.freeze(["call", "manual"]);

export function newCharge(id, input) {
  required(input, ["accountId", "tariffId", "tariffCode", "quantity", "at", "source"]);
  if (typeof input.quantity !== "number" || !(input.quantity > 0)) throw new ValidationError("quantity", "must be positive");
  oneOf(input.source.kind, SOURCE_KINDS, "source.kind");
  if (typeof input.source.ref !== "string" || input.source.ref === "") throw new ValidationError("source.ref", "is required");
  return {
    id,
    accountId: input.accountId,
    tariffId: input.tariffId,
    tariffCode: input.tariffCode,
    quantity: input.quantity,
    at: input.at,
    source: { kind: input.source.kind, ref: input.source.ref },
    note: input.note ?? null,
    status: CHARGE_STATUS.OPEN,
    invoiceId: null,
  };
}

/** One charge per tariff and source: a call departing twice (a replayed event) is charged once. */
export const chargeKey = (charge) => `${charge.tariffCode}|${charge.source.kind}|${charge.source.ref}`;
