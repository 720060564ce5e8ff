// The ledger export the port's accounting system reads: one record per line, fields separated by
// ";", amounts in minor units, dates as YYYY-MM-DD (UTC). Record order is fixed:
//   H;<port>;<from>;<to>
//   I;<number>;<account code>;<issued>;<due>;<net>;<vat>;<gross>
//   L;<number>;<line no>;<tariff>;<quantity>;<discount per mille>;<net>;<vat>
//   T;<invoices>;<net>;<vat>;<gross>
// Totals on T are sums of the I records, which are sums of their L records.

import { toIso } from "../../core/time.js";

const day = (t) => toIso(t).slice(0, 10);

export function createInvoiceExport(ctx, { queries, accounts }) {
  function invoiceRecords(invoice) {
    const account = accounts.getAccount(invoice.accountId);
    const out = [
      ["I", invoice.number, account.code, day(invoice.issuedAt), day(invoice.dueAt), invoice.netMinor, invoice.vatMinor, invoice.grossMinor],
    ];
    invoice.lines.forEach((line, i) => {
      out.push(["L", invoice.number, i + 1, line.tariffCode, line.quantity, line.discountPermille, line.netMinor, line.vatMinor]);
    });
    return out;
  }

  /** The export of the invoices issued in a half-open period, in id order. */
  function exportPeriod(period) {
    const invoices = queries.issuedIn(period);
    const records = [["H", ctx.config.port.code, day(period.start), day(period.end)]];
    let net = 0;
    let vat = 0;
    for (const invoice of invoices) {
      records.push(...invoiceRecords(invoice));
      net += invoice.netMinor;
      vat += invoice.vatMinor;
    }
    records.push(["T", invoices.length, net, vat, net + vat]);
    return records.map((r) => r.join(";")).join("\n") + "\n";
  }

  return { exportPeriod, invoiceRecords };
}
