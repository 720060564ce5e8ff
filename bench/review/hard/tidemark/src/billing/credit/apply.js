// Applying an account's credit (the unallocated part of payments, the unapplied part of credit
// notes) to its open invoices, oldest credit first onto oldest invoice first.

import { accountKey, BILLING_EVENTS } from "../events.js";
import { allocatedMinor, allocateOldestFirst, recordAllocations } from "../payments/allocation.js";

export function createCreditApplier(ctx, stores, { queries }) {
  function fromPayments(accountId) {
    let applied = 0;
    for (const payment of stores.payments.list((p) => p.accountId === accountId && p.unallocatedMinor > 0)) {
      const { allocations, unallocatedMinor } = allocateOldestFirst(payment.unallocatedMinor, queries.openInvoices(accountId));
      if (allocations.length === 0) break;
      recordAllocations(stores, allocations, "paidMinor");
      stores.payments.update(payment.id, (p) => ({ ...p, allocations: [...p.allocations, ...allocations], unallocatedMinor }));
      applied += allocatedMinor(allocations);
    }
    return applied;
  }

  function fromCreditNotes(accountId) {
    let applied = 0;
    for (const note of stores.creditNotes.list((n) => n.accountId === accountId && n.unappliedMinor > 0)) {
      const { allocations, unallocatedMinor } = allocateOldestFirst(note.unappliedMinor, queries.openInvoices(accountId));
      if (allocations.length === 0) break;
      recordAllocations(stores, allocations, "creditedMinor");
      const taken = allocatedMinor(allocations);
      stores.creditNotes.update(note.id, (n) => ({ ...n, appliedMinor: n.appliedMinor + taken, unappliedMinor: unallocatedMinor }));
      applied += taken;
    }
    return applied;
  }

  /** Returns the amount applied; publishes only when something moved. */
  async function applyCredit(accountId) {
    return ctx.locks.withLock(accountKey(accountId), async () => {
      const appliedMinor = fromPayments(accountId) + fromCreditNotes(accountId);
      if (appliedMinor > 0) ctx.events.publish(BILLING_EVENTS.creditApplied, { accountId, appliedMinor });
      return appliedMinor;
    });
  }

  return { applyCredit };
}
