// The receipt an agent gets for a payment: what was received, which invoices it settled (by their
// numbers) and what is left on account as credit. The amounts are the payment's own allocations,
// so the receipt adds up to the payment exactly.

import { formatMinor, sumMinor } from "../../core/money.js";
import { toIso } from "../../core/time.js";

export function receiptFor(payment, { invoices, account, portName, currency }) {
  const money = (m) => formatMinor(m, currency);
  const rows = payment.allocations.map((a) => {
    const invoice = invoices.getInvoice(a.invoiceId);
    return { number: invoice.number, amountMinor: a.amountMinor, settled: invoice.status === "paid" };
  });
  const allocatedMinor = sumMinor(rows.map((r) => r.amountMinor));
  const lines = [
    `${portName}: receipt for ${payment.reference}`,
    `${account.name} (${account.code}), received ${toIso(payment.receivedAt).slice(0, 10)} by ${payment.method}`,
    "",
    ...rows.map((r) => `  ${r.number.padEnd(20)}${money(r.amountMinor).padStart(18)}${r.settled ? "  settled" : ""}`),
  ];
  if (payment.unallocatedMinor > 0) lines.push(`  ${"On account".padEnd(20)}${money(payment.unallocatedMinor).padStart(18)}`);
  lines.push("", `  ${"Received".padEnd(20)}${money(payment.amountMinor).padStart(18)}`);
  return { rows, allocatedMinor, onAccountMinor: payment.unallocatedMinor, text: lines.join("\n") };
}
