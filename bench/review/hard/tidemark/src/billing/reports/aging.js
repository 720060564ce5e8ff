// The aged debt report: what each account owes, split by how long past the due date it is.
// Buckets are half-open ranges of whole days overdue: not yet due, 1–30, 31–60, 61–90, over 90.

import { DAY } from "../../core/time.js";
import { outstandingMinor } from "../records/invoice.js";

export const BUCKETS = Object.freeze([
  { key: "current", from: -Infinity, to: 1 },
  { key: "d1to30", from: 1, to: 31 },
  { key: "d31to60", from: 31, to: 61 },
  { key: "d61to90", from: 61, to: 91 },
  { key: "over90", from: 91, to: Infinity },
]);

export const daysPastDue = (invoice, now) => Math.ceil((now - invoice.dueAt) / DAY);

export function bucketOf(days) {
  return BUCKETS.find((b) => b.from <= days && days < b.to).key;
}

const emptyRow = () => Object.fromEntries(BUCKETS.map((b) => [b.key, 0]));

export function createAgingReport(ctx, { queries, accounts }) {
  /** One row per account with something open, in account id order, and a total row. */
  function agingAt(now = ctx.clock.now()) {
    const rows = new Map();
    for (const invoice of queries.allOpen()) {
      const account = accounts.findAccount(invoice.accountId);
      if (!account) continue;
      const row = rows.get(account.id) ?? { accountId: account.id, ...emptyRow(), totalMinor: 0 };
      const owed = outstandingMinor(invoice);
      row[bucketOf(daysPastDue(invoice, now))] += owed;
      row.totalMinor += owed;
      rows.set(account.id, row);
    }
    const list = [...rows.values()].toSorted((a, b) => (a.accountId < b.accountId ? -1 : 1));
    const total = { accountId: "TOTAL", ...emptyRow(), totalMinor: 0 };
    for (const row of list) for (const key of [...BUCKETS.map((b) => b.key), "totalMinor"]) total[key] += row[key];
    return { at: now, rows: list, total };
  }

  return { agingAt };
}
