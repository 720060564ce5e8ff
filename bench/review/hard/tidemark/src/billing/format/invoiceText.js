// An invoice as printed: header, one row per line with its net and VAT, and the totals, which are
// the sums of the rows above them (never recomputed from a rate).

import { formatMinor } from "../../core/money.js";
import { toIso } from "../../core/time.js";

const day = (t) => (t === null ? "—" : toIso(t).slice(0, 10));
const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);

export function formatInvoice(invoice, account, { portName, currency, vatRatePermille }) {
  const money = (m) => formatMinor(m, currency);
  const title = invoice.status === "draft" ? "DRAFT INVOICE" : `INVOICE ${invoice.number}`;
  const rows = [
    `${portName} — ${title}`,
    `${account.name} (${account.code})`,
    `Issued ${day(invoice.issuedAt)}   Due ${day(invoice.dueAt)}`,
    "",
    `${pad("Tariff", 12)}${pad("Description", 44)}${lpad("Net", 16)}${lpad("VAT", 14)}`,
  ];
  for (const line of invoice.lines) {
    const discount = line.discountPermille ? ` (−${line.discountPermille / 10}%)` : "";
    rows.push(`${pad(line.tariffCode, 12)}${pad(line.description + discount, 44)}${lpad(money(line.netMinor), 16)}${lpad(money(line.vatMinor), 14)}`);
  }
  rows.push("");
  rows.push(`${pad("", 56)}${lpad("Net", 16)}${lpad(money(invoice.netMinor), 14)}`);
  rows.push(`${pad("", 56)}${lpad(`VAT ${vatRatePermille / 10}%`, 16)}${lpad(money(invoice.vatMinor), 14)}`);
  rows.push(`${pad("", 56)}${lpad("Total", 16)}${lpad(money(invoice.grossMinor), 14)}`);
  if (invoice.paidMinor > 0) rows.push(`${pad("", 56)}${lpad("Paid", 16)}${lpad(money(-invoice.paidMinor), 14)}`);
  if (invoice.creditedMinor > 0) rows.push(`${pad("", 56)}${lpad("Credited", 16)}${lpad(money(-invoice.creditedMinor), 14)}`);
  if (account.vatExempt) rows.push("", "VAT exempt: reverse charge applies.");
  return rows.join("\n");
}
