// Placing money on open invoices, oldest first: each invoice takes what it still owes until the
// money runs out; what is left over stays with the payer as credit.

import { assertMinor } from "../../core/money.js";
import { outstandingMinor, settledStatus } from "../records/invoice.js";

/**
 * `invoices` must come oldest first (queries.openInvoices gives them in id order); returns
 * { allocations: [{ invoiceId, amountMinor }], unallocatedMinor }.
 */
export function allocateOldestFirst(amountMinor, invoices) {
  assertMinor(amountMinor);
  let left = amountMinor;
  const allocations = [];
  for (const invoice of invoices) {
    if (left <= 0) break;
    const owed = outstandingMinor(invoice);
    if (owed <= 0) continue;
    const take = Math.min(owed, left);
    allocations.push({ invoiceId: invoice.id, amountMinor: take });
    left -= take;
  }
  return { allocations, unallocatedMinor: left };
}

/**
 * Writes allocations onto their invoices: payments raise paidMinor, credit notes creditedMinor.
 * An invoice with nothing left to pay becomes paid. The caller holds the account's lock.
 */
export function recordAllocations(stores, allocations, field) {
  return allocations.map(({ invoiceId, amountMinor }) =>
    stores.invoices.update(invoiceId, (inv) => {
      const next = { ...inv, [field]: inv[field] + amountMinor };
      return { ...next, status: settledStatus(next) };
    }),
  );
}

export const allocatedMinor = (allocations) => allocations.reduce((sum, a) => sum + a.amountMinor, 0);
