// The credit controller's watch list: invoices that have had a reminder and are not paid yet. An
// invoice leaves the list when a payment, a credit note or applied credit settles it.

import { BILLING_EVENTS } from "../events.js";
import { INVOICE_STATUS } from "../records/invoice.js";

export function createReminderWatch(ctx, stores) {
  const watched = new Set();

  const settled = (invoiceId) => stores.invoices.get(invoiceId).status !== INVOICE_STATUS.POSTED;

  function drop(invoiceIds) {
    for (const id of invoiceIds) if (watched.has(id) && settled(id)) watched.delete(id);
  }

  const offs = [
    ctx.events.subscribe(BILLING_EVENTS.paymentTaken, (event) => drop(event.allocations.map((a) => a.invoiceId))),
    ctx.events.subscribe(BILLING_EVENTS.creditNoteIssued, (event) => drop([event.invoiceId])),
    ctx.events.subscribe(BILLING_EVENTS.creditApplied, (event) =>
      drop([...watched].filter((id) => stores.invoices.get(id).accountId === event.accountId)),
    ),
  ];

  return {
    add(invoiceIds) {
      for (const id of invoiceIds) watched.add(id);
    },
    /** Watched invoices in id order. */
    list: () => [...watched].sort(),
    has: (id) => watched.has(id),
    stop() {
      for (const off of offs.splice(0)) off();
    },
  };
}
