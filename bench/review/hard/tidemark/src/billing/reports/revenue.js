// Revenue by tariff over a period: the net of the lines of invoices issued in it, less the net of
// credit notes issued in it, per tariff code. Sums of rounded lines, never re-rounded.

import { contains } from "../../core/time.js";

export function createRevenueReport(ctx, stores, { queries }) {
  function revenueIn(period) {
    const byCode = new Map();
    const add = (code, netMinor, count) => {
      const row = byCode.get(code) ?? { tariffCode: code, netMinor: 0, lines: 0 };
      row.netMinor += netMinor;
      row.lines += count;
      byCode.set(code, row);
    };
    for (const invoice of queries.issuedIn(period)) {
      for (const line of invoice.lines) add(line.tariffCode, line.netMinor, 1);
    }
    for (const note of stores.creditNotes.list((n) => contains(period, n.issuedAt))) {
      for (const line of note.lines) add(line.tariffCode, line.netMinor, 0);
    }
    const rows = [...byCode.values()].toSorted((a, b) => (a.tariffCode < b.tariffCode ? -1 : a.tariffCode > b.tariffCode ? 1 : 0));
    return { period, rows, netMinor: rows.reduce((s, r) => s + r.netMinor, 0) };
  }

  /** Each tariff's share of the period's net, in per-mille (for the board's pie chart). */
  function sharesIn(period) {
    const { rows, netMinor } = revenueIn(period);
    if (netMinor === 0) return rows.map((r) => ({ tariffCode: r.tariffCode, permille: 0 }));
    return rows.map((r) => ({ tariffCode: r.tariffCode, permille: Math.round((r.netMinor * 1000) / netMinor) }));
  }

  return { revenueIn, sharesIn };
}
