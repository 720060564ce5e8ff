// An account statement for a period: the balance brought forward, every invoice, payment and credit
// note dated inside the period in time order, and the balance carried forward. Invoices count at
// their issue, payments at receipt, credit notes at issue; drafts and void invoices not at all.

import { contains } from "../../core/time.js";
import { byKeys, byNumber, byString } from "../../core/sort.js";
import { INVOICE_STATUS } from "../records/invoice.js";

const counted = (inv) => inv.status === INVOICE_STATUS.POSTED || inv.status === INVOICE_STATUS.PAID;

export function createStatements(ctx, stores, { accounts }) {
  function entriesOf(accountId) {
    const invoices = stores.invoices
      .list((i) => i.accountId === accountId && counted(i))
      .map((i) => ({ at: i.issuedAt, kind: "invoice", ref: i.number, id: i.id, amountMinor: i.grossMinor }));
    const payments = stores.payments
      .list((p) => p.accountId === accountId)
      .map((p) => ({ at: p.receivedAt, kind: "payment", ref: p.reference, id: p.id, amountMinor: -p.amountMinor }));
    const notes = stores.creditNotes
      .list((n) => n.accountId === accountId)
      .map((n) => ({ at: n.issuedAt, kind: "credit note", ref: n.id, id: n.id, amountMinor: n.grossMinor }));
    return [...invoices, ...payments, ...notes].toSorted(byKeys(byNumber("at"), byString("id")));
  }

  /** { account, period, openingMinor, entries: [{ at, kind, ref, amountMinor, balanceMinor }], closingMinor } */
  function statementFor(accountId, period) {
    const account = accounts.getAccount(accountId);
    const all = entriesOf(accountId);
    const openingMinor = all.filter((e) => e.at < period.start).reduce((s, e) => s + e.amountMinor, 0);
    let running = openingMinor;
    const entries = all
      .filter((e) => contains(period, e.at))
      .map((e) => {
        running += e.amountMinor;
        return { ...e, balanceMinor: running };
      });
    return { account, period, openingMinor, entries, closingMinor: running };
  }

  return { statementFor };
}
