// Drafting, posting and voiding invoices. Every step runs under the account's lock, taken once
// at the top: nothing called from inside takes it again.

import { ConflictError, ValidationError } from "../../core/errors.js";
import { accountKey, BILLING_EVENTS } from "../events.js";
import { ACCOUNT_STATUS } from "../records/account.js";
import { INVOICE_STATUS, newDraft } from "../records/invoice.js";
import { withMinimum } from "./minimum.js";

export function createInvoiceService(ctx, stores, { ids, accounts, charges, lines, terms, numbering }) {
  const claimedByDrafts = (accountId) =>
    new Set(stores.invoices.list((i) => i.accountId === accountId && i.status === INVOICE_STATUS.DRAFT).flatMap((i) => i.chargeIds));

  /** A draft of the account's open charges (or of the named ones) not already on another draft. */
  async function draft(accountId, { chargeIds } = {}) {
    return ctx.locks.withLock(accountKey(accountId), async () => {
      const account = accounts.getAccount(accountId);
      const claimed = claimedByDrafts(accountId);
      let open = charges.openCharges(accountId).filter((c) => !claimed.has(c.id));
      if (chargeIds) open = open.filter((c) => chargeIds.includes(c.id));
      if (open.length === 0) throw new ValidationError("charges", `no open charges to invoice for ${accountId}`);
      const built = withMinimum(lines.linesFor(open, account), ctx.config, account);
      const row = stores.invoices.insert(
        newDraft(ids.invoice.next(), { accountId, lines: built, chargeIds: open.map((c) => c.id), createdAt: ctx.clock.now() }),
      );
      ctx.events.publish(BILLING_EVENTS.invoiceDrafted, { invoiceId: row.id, accountId });
      return row;
    });
  }

  /** Gives the draft its number, issue and due dates, and bills its charges. */
  async function post(invoiceId) {
    const { accountId } = stores.invoices.get(invoiceId);
    return ctx.locks.withLock(accountKey(accountId), async () => {
      const current = stores.invoices.get(invoiceId);
      if (current.status !== INVOICE_STATUS.DRAFT) throw new ConflictError(`invoice ${invoiceId} is ${current.status}`);
      const account = accounts.getAccount(accountId);
      if (account.status !== ACCOUNT_STATUS.OPEN) throw new ConflictError(`account ${account.code} is closed`);
      const issuedAt = ctx.clock.now();
      charges.markBilled(current.chargeIds, invoiceId);
      const posted = stores.invoices.update(
        invoiceId,
        (inv) => ({ ...inv, status: INVOICE_STATUS.POSTED, number: numbering.next(issuedAt), issuedAt, dueAt: terms.dueAt(issuedAt, account) }),
        current.version,
      );
      ctx.events.publish(BILLING_EVENTS.invoicePosted, { invoiceId, accountId, number: posted.number, grossMinor: posted.grossMinor });
      return posted;
    });
  }

  /** Voids a draft, or a posted invoice nothing has been paid or credited on (its charges reopen). */
  async function voidInvoice(invoiceId, reason) {
    if (typeof reason !== "string" || reason.trim() === "") throw new ValidationError("reason", "is required");
    const { accountId } = stores.invoices.get(invoiceId);
    return ctx.locks.withLock(accountKey(accountId), async () => {
      const current = stores.invoices.get(invoiceId);
      if (current.status === INVOICE_STATUS.POSTED) {
        if (current.paidMinor !== 0 || current.creditedMinor !== 0) {
          throw new ConflictError(`invoice ${current.number} has payments or credit notes; credit it instead`);
        }
        charges.reopen(current.chargeIds);
      } else if (current.status !== INVOICE_STATUS.DRAFT) {
        throw new ConflictError(`invoice ${invoiceId} is ${current.status}`);
      }
      const row = stores.invoices.update(invoiceId, (inv) => ({ ...inv, status: INVOICE_STATUS.VOID, voidReason: reason }), current.version);
      ctx.events.publish(BILLING_EVENTS.invoiceVoided, { invoiceId, accountId, reason });
      return row;
    });
  }

  return { draft, post, voidInvoice };
}
