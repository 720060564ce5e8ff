// Billing's tables and id series. Ids sort by creation, so a store's id order is the order the
// records were made in: allocation and dunning take "oldest first" from it.

import { createStore } from "../core/store.js";
import { idSequence } from "../core/ids.js";

export function createBillingStores() {
  return {
    tariffs: createStore("tariff"),
    accounts: createStore("account"),
    charges: createStore("charge"),
    invoices: createStore("invoice"),
    payments: createStore("payment"),
    creditNotes: createStore("credit note"),
    quotes: createStore("quote"),
    discounts: createStore("discount"),
  };
}

export function createBillingIds() {
  return {
    tariff: idSequence("TRF"),
    account: idSequence("ACC"),
    charge: idSequence("CHG"),
    invoice: idSequence("INV"),
    payment: idSequence("PAY"),
    creditNote: idSequence("CRN"),
    quote: idSequence("QTE"),
    discount: idSequence("DSC"),
  };
}

/** Counts per table, for the platform's health page. */
export function storeSizes(stores) {
  const out = {};
  for (const [name, store] of Object.entries(stores)) out[name] = store.size;
  return out;
}
