// What an account owes and what it holds in credit, read from the ledger. The balance is owed
// minus credit; a negative balance means the port owes the account.

import { sumMinor } from "../../core/money.js";
import { INVOICE_STATUS, outstandingMinor } from "../records/invoice.js";

export function createBalances(stores) {
  function owedOn(accountId) {
    return stores.invoices
      .list((i) => i.accountId === accountId && i.status === INVOICE_STATUS.POSTED)
      .map((i) => Math.max(0, outstandingMinor(i)));
  }

  function creditOf(accountId) {
    const payments = stores.payments.list((p) => p.accountId === accountId).map((p) => p.unallocatedMinor);
    const notes = stores.creditNotes.list((n) => n.accountId === accountId).map((n) => n.unappliedMinor);
    return sumMinor(payments) + sumMinor(notes);
  }

  function balanceOf(accountId) {
    const outstanding = sumMinor(owedOn(accountId));
    const credit = creditOf(accountId);
    return { accountId, outstandingMinor: outstanding, creditMinor: credit, balanceMinor: outstanding - credit };
  }

  /** Balances of every account that owes or holds something, largest debt first. */
  function debtors() {
    const ids = new Set(stores.invoices.list((i) => i.status === INVOICE_STATUS.POSTED).map((i) => i.accountId));
    return [...ids]
      .map(balanceOf)
      .filter((b) => b.balanceMinor !== 0)
      .toSorted((a, b) => b.balanceMinor - a.balanceMinor || (a.accountId < b.accountId ? -1 : 1));
  }

  return { balanceOf, debtors };
}
