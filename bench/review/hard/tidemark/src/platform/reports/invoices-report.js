// invoices.csv — invoices issued in a window, one line each, with net, VAT and total in the
// invoice's own currency. The totals line adds the rounded lines; it never re-rounds a sum.
// Invoices come through the billing port: billing.listInvoices() → [{ id, vesselId, accountId,
// netMinor, vatMinor, totalMinor, currency, issuedAt, dueAt, status }] in id order.

import { contains } from "../../core/time.js";
import { sumMinor } from "../../core/money.js";
import { authorize } from "../users/permissions.js";
import { money, text, time } from "./columns.js";
import { toCsv } from "./csv.js";

export function createInvoicesReport(ctx, { billing, vessels, scope, settings }) {
  function build(user, { window } = {}) {
    const allowed = authorize(user, "invoices:export");
    const invoices = scope
      .filter(allowed, user, billing.listInvoices().filter((i) => !window || contains(window, i.issuedAt)))
      .slice(0, settings.reports.maxRows);
    const rows = invoices.map((invoice) => ({ ...invoice, vesselName: vessels.findVessel(invoice.vesselId)?.name ?? "" }));
    const columns = [
      text("invoice", (r) => r.id),
      text("account", (r) => r.accountId),
      text("vessel", (r) => r.vesselName),
      time("issued", (r) => r.issuedAt),
      time("due", (r) => r.dueAt),
      money("net", (r) => r.netMinor),
      money("vat", (r) => r.vatMinor),
      money("total", (r) => r.totalMinor),
      text("status", (r) => r.status),
    ];
    // One totals line per currency: amounts in different currencies do not add up.
    const currencies = [...new Set(rows.map((r) => r.currency))].sort();
    const totals = currencies.map((currency) => {
      const mine = rows.filter((r) => r.currency === currency);
      return {
        id: `TOTAL ${currency}`,
        currency,
        netMinor: sumMinor(mine.map((r) => r.netMinor)),
        vatMinor: sumMinor(mine.map((r) => r.vatMinor)),
        totalMinor: sumMinor(mine.map((r) => r.totalMinor)),
      };
    });
    return toCsv(columns, [...rows, ...totals]);
  }

  return { build };
}
