// Boxes past their free time, longest stay first, with the days they would be charged if they left
// now. The lines' agents get it every morning.

import { byNumber, byString, byKeys, descending } from "../../core/sort.js";
import { chargeableDwellDays, dwellDays, freeTimeEnds } from "../dwell/dwell.js";

export function createDwellReport(ctx, { stores }) {
  function overdue({ line } = {}) {
    const now = ctx.clock.now();
    const freeDays = ctx.config.cargo.dwellFreeDays;
    const rows = [];
    for (const c of stores.containers.list((r) => r.status === "in-yard" && (line === undefined || r.line === line))) {
      const days = dwellDays(c, now);
      if (days <= freeDays) continue;
      rows.push({
        containerId: c.id,
        number: c.number,
        line: c.line,
        days,
        chargeableDays: chargeableDwellDays(days, freeDays),
        freeTimeEndedAt: freeTimeEnds(c, freeDays),
      });
    }
    return rows.toSorted(byKeys(descending(byNumber("days")), byString("number")));
  }

  /** Boxes per line that are overdue, lines in alphabetical order. */
  function overdueByLine() {
    const counts = new Map();
    for (const row of overdue()) counts.set(row.line, (counts.get(row.line) ?? 0) + 1);
    return [...counts.entries()].toSorted(([a], [b]) => (a < b ? -1 : 1)).map(([line, boxes]) => ({ line, boxes }));
  }

  return { overdue, overdueByLine };
}
