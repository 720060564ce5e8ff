// What billing publishes and the lock keys it takes. Every event is published after the store
// write it reports has succeeded, and every payload names the account, so a subscriber that keeps
// something per account (a cached balance, a statement) knows what to drop.

export const BILLING_EVENTS = Object.freeze({
  tariffChanged: "billing.tariff.changed", // { tariffId, code }
  chargeRaised: "billing.charge.raised", // { chargeId, accountId, tariffCode }
  invoiceDrafted: "billing.invoice.drafted", // { invoiceId, accountId }
  invoicePosted: "billing.invoice.posted", // { invoiceId, accountId, number, grossMinor }
  invoiceVoided: "billing.invoice.voided", // { invoiceId, accountId, reason }
  paymentTaken: "billing.payment.taken", // { paymentId, accountId, amountMinor, allocations }
  creditNoteIssued: "billing.creditNote.issued", // { creditNoteId, invoiceId, accountId, grossMinor }
  creditApplied: "billing.credit.applied", // { accountId, appliedMinor }
  reminderSent: "billing.reminder.sent", // { accountId, invoiceIds, level, notice }
  accountOpened: "billing.account.opened", // { accountId, code }
  accountClosed: "billing.account.closed", // { accountId }
});

/** Events that change what an account owes or holds in credit. */
export const BALANCE_EVENTS = Object.freeze([
  BILLING_EVENTS.invoicePosted,
  BILLING_EVENTS.invoiceVoided,
  BILLING_EVENTS.paymentTaken,
  BILLING_EVENTS.creditNoteIssued,
  BILLING_EVENTS.creditApplied,
]);

/**
 * The lock an account's money moves under: posting an invoice, taking a payment, issuing a credit
 * note, applying credit and closing the account all take it, once, at the top of the change.
 */
export const accountKey = (accountId) => `account:${accountId}`;

/** Other modules' events billing listens to (their payloads carry ids; the rest comes through deps). */
export const PORT_EVENTS = Object.freeze({
  callDeparted: "vessels.call.departed", // { callId }
});
