// What a tariff version asks for a quantity, before discount and VAT, and how its rate reads on
// the tariff sheet.

import { permilleOf } from "../../core/money.js";
import { BASES } from "../records/tariff.js";

export function amountOf(tariff, quantity) {
  if (tariff.basis === BASES.VALUE) return permilleOf(quantity, tariff.ratePermille);
  return quantity * tariff.rateMinor;
}

/** A tariff's rate as a short text for the tariff sheet: "12,50 EUR per GT", "3 ‰ of value". */
export function rateText(tariff, currency = "EUR") {
  if (tariff.basis === BASES.VALUE) return `${tariff.ratePermille} ‰ of value`;
  const units = Math.floor(tariff.rateMinor / 100);
  const cents = String(tariff.rateMinor % 100).padStart(2, "0");
  const per = {
    [BASES.GT_CALL]: "per GT",
    [BASES.METRE_DAY]: "per metre-day",
    [BASES.MOVE]: "per move",
    [BASES.REEFER_DAY]: "per reefer-day",
  }[tariff.basis];
  return `${units},${cents} ${currency} ${per}`;
}

/** Changes in rate between two versions of a code, in per-mille of the old rate (for the notice to agents). */
export function rateChangePermille(before, after) {
  if (before.basis !== after.basis) return null;
  const from = before.basis === BASES.VALUE ? before.ratePermille : before.rateMinor;
  const to = after.basis === BASES.VALUE ? after.ratePermille : after.rateMinor;
  return Math.round(((to - from) * 1000) / from);
}
