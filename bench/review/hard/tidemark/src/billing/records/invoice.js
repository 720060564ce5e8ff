// An invoice and its lines. A line's netMinor and vatMinor are rounded once, when the line is
// built; the invoice's totals are sums of its lines. paidMinor and creditedMinor grow as payments
// and credit notes are allocated to it.
//
// line: { chargeId, tariffCode, description, quantity, discountPermille, netMinor, vatMinor }

import { sumMinor } from "../../core/money.js";

export const INVOICE_STATUS = Object.freeze({ DRAFT: "draft", POSTED: "posted", PAID: "paid", VOID: "void" });

export function totalsOf(lines) {
  const netMinor = sumMinor(lines.map((l) => l.netMinor));
  const vatMinor = sumMinor(lines.map((l) => l.vatMinor));
  return { netMinor, vatMinor, grossMinor: netMinor + vatMinor };
}

export function newDraft(id, { accountId, lines, chargeIds, createdAt }) {
  return {
    id,
    number: null,
    accountId,
    status: INVOICE_STATUS.DRAFT,
    lines,
    chargeIds,
    ...totalsOf(lines),
    paidMinor: 0,
    creditedMinor: 0,
    createdAt,
    issuedAt: null,
    dueAt: null,
    remindedAt: null,
    reminderLevel: 0,
  };
}

/** What is still to be paid on a posted invoice. */
export const outstandingMinor = (invoice) => invoice.grossMinor - invoice.paidMinor - invoice.creditedMinor;

export const isOpen = (invoice) => invoice.status === INVOICE_STATUS.POSTED && outstandingMinor(invoice) > 0;

/** After an allocation: a posted invoice with nothing outstanding is paid. */
export const settledStatus = (invoice) =>
  invoice.status === INVOICE_STATUS.POSTED && outstandingMinor(invoice) <= 0 ? INVOICE_STATUS.PAID : invoice.status;
