// Taking payments. A payment is placed on the account's open invoices oldest first, under the
// account's lock; what is left over is kept on the payment as credit for applyCredit.

import { ConflictError } from "../../core/errors.js";
import { accountKey, BILLING_EVENTS } from "../events.js";
import { newPayment, validatePayment } from "../records/payment.js";
import { allocateOldestFirst, recordAllocations } from "./allocation.js";

export function createPaymentService(ctx, stores, { ids, accounts, queries }) {
  async function takePayment(input) {
    validatePayment(input);
    const { accountId } = input;
    return ctx.locks.withLock(accountKey(accountId), async () => {
      accounts.getAccount(accountId);
      if (stores.payments.list((p) => p.accountId === accountId && p.reference === input.reference).length > 0) {
        throw new ConflictError(`payment ${input.reference} already taken`);
      }
      const { allocations, unallocatedMinor } = allocateOldestFirst(input.amountMinor, queries.openInvoices(accountId));
      recordAllocations(stores, allocations, "paidMinor");
      const receivedAt = input.receivedAt ?? ctx.clock.now();
      const payment = stores.payments.insert(newPayment(ids.payment.next(), input, { allocations, unallocatedMinor, receivedAt }));
      ctx.events.publish(BILLING_EVENTS.paymentTaken, {
        paymentId: payment.id,
        accountId,
        amountMinor: payment.amountMinor,
        allocations: payment.allocations,
      });
      return payment;
    });
  }

  const findPayment = (id) => stores.payments.find(id);
  const paymentsOf = (accountId) => stores.payments.list((p) => p.accountId === accountId);

  return { takePayment, findPayment, paymentsOf };
}
