// A credit note reverses whole lines of a posted invoice. Its lines carry the credited lines'
// rounded amounts with the sign turned, so credit note and invoice add up line by line. The part
// the invoice no longer owes (it may already be paid) stays as unappliedMinor credit.

import { ValidationError } from "../../core/errors.js";

export function creditLinesFor(invoice, lineIndexes) {
  if (!Array.isArray(lineIndexes) || lineIndexes.length === 0) throw new ValidationError("lines", "name at least one line");
  const seen = new Set();
  return lineIndexes.map((i) => {
    if (!Number.isInteger(i) || i < 0 || i >= invoice.lines.length) throw new ValidationError("lines", `no line ${i} on ${invoice.id}`);
    if (seen.has(i)) throw new ValidationError("lines", `line ${i} named twice`);
    seen.add(i);
    const line = invoice.lines[i];
    return { lineIndex: i, tariffCode: line.tariffCode, description: line.description, netMinor: -line.netMinor, vatMinor: -line.vatMinor };
  });
}

export function newCreditNote(id, { invoice, lines, reason, issuedAt, appliedMinor, grossMinor }) {
  const netMinor = lines.reduce((s, l) => s + l.netMinor, 0);
  const vatMinor = lines.reduce((s, l) => s + l.vatMinor, 0);
  return {
    id,
    invoiceId: invoice.id,
    accountId: invoice.accountId,
    reason,
    lines,
    netMinor,
    vatMinor,
    grossMinor,
    issuedAt,
    // credit amounts are positive from here on: what was taken off the invoice, and what is left over
    appliedMinor,
    unappliedMinor: -grossMinor - appliedMinor,
  };
}
