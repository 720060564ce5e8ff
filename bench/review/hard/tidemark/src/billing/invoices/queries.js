// Reading the ledger. Lists come in id order, which is the order invoices were made in: "oldest
// first" for allocation and dunning.

import { contains } from "../../core/time.js";
import { INVOICE_STATUS, isOpen } from "../records/invoice.js";

export function createInvoiceQueries(stores) {
  const findInvoice = (id) => stores.invoices.find(id);
  const getInvoice = (id) => stores.invoices.get(id);

  /** Posted invoices of an account with something still to pay, oldest first. */
  const openInvoices = (accountId) => stores.invoices.list((i) => i.accountId === accountId && isOpen(i));

  /** Every open invoice of every account, oldest first (the dunning run walks these). */
  const allOpen = () => stores.invoices.list(isOpen);

  const invoicesOf = (accountId) => stores.invoices.list((i) => i.accountId === accountId);

  const findByNumber = (number) => stores.invoices.list((i) => i.number === number)[0] ?? null;

  /** Posted (or since paid) invoices issued inside a half-open period. */
  const issuedIn = (period) =>
    stores.invoices.list((i) => (i.status === INVOICE_STATUS.POSTED || i.status === INVOICE_STATUS.PAID) && contains(period, i.issuedAt));

  return { findInvoice, getInvoice, openInvoices, allOpen, invoicesOf, findByNumber, issuedIn };
}
