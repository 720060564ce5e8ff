// Credit notes. Whole lines of a posted (or paid) invoice are credited, each line at most once;
// what the invoice still owed is taken off it, anything beyond that is credit for the account.

import { ConflictError, ValidationError } from "../../core/errors.js";
import { accountKey, BILLING_EVENTS } from "../events.js";
import { creditLinesFor, newCreditNote } from "../records/creditNote.js";
import { INVOICE_STATUS, outstandingMinor, settledStatus } from "../records/invoice.js";

export function createCreditNoteService(ctx, stores, { ids }) {
  const creditedLines = (invoiceId) =>
    new Set(stores.creditNotes.list((n) => n.invoiceId === invoiceId).flatMap((n) => n.lines.map((l) => l.lineIndex)));

  async function issue(invoiceId, { lines: lineIndexes, reason }) {
    if (typeof reason !== "string" || reason.trim() === "") throw new ValidationError("reason", "is required");
    const { accountId } = stores.invoices.get(invoiceId);
    return ctx.locks.withLock(accountKey(accountId), async () => {
      const invoice = stores.invoices.get(invoiceId);
      if (invoice.status !== INVOICE_STATUS.POSTED && invoice.status !== INVOICE_STATUS.PAID) {
        throw new ConflictError(`invoice ${invoiceId} is ${invoice.status}`);
      }
      const lines = creditLinesFor(invoice, lineIndexes);
      const already = creditedLines(invoiceId);
      const twice = lines.find((l) => already.has(l.lineIndex));
      if (twice) throw new ConflictError(`line ${twice.lineIndex} of ${invoice.number} is already credited`);
      const grossMinor = lines.reduce((s, l) => s + l.netMinor + l.vatMinor, 0);
      const appliedMinor = Math.min(Math.max(outstandingMinor(invoice), 0), -grossMinor);
      if (appliedMinor > 0) {
        stores.invoices.update(invoiceId, (inv) => {
          const next = { ...inv, creditedMinor: inv.creditedMinor + appliedMinor };
          return { ...next, status: settledStatus(next) };
        });
      }
      const note = stores.creditNotes.insert(
        newCreditNote(ids.creditNote.next(), { invoice, lines, reason, issuedAt: ctx.clock.now(), appliedMinor, grossMinor }),
      );
      ctx.events.publish(BILLING_EVENTS.creditNoteIssued, { creditNoteId: note.id, invoiceId, accountId, grossMinor });
      return note;
    });
  }

  const creditNotesOf = (invoiceId) => stores.creditNotes.list((n) => n.invoiceId === invoiceId);

  return { issue, creditNotesOf };
}
