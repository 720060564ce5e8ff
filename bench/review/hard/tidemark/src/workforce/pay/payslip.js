// A worker's payslip over a period: the lines of every approved timesheet clocked in the period,
// and their total (the sum of the rounded lines).

import { sumMinor, formatMinor } from "../../core/money.js";
import { contains } from "../../core/time.js";
import { payLines } from "./lines.js";

export function payslip(stores, workerId, period) {
  const sheets = stores.timesheets.list(
    (t) => t.workerId === workerId && t.status === "approved" && contains(period, t.clockIn),
  );
  const lines = sheets.flatMap(payLines);
  return {
    workerId,
    period: { start: period.start, end: period.end },
    sheetIds: sheets.map((s) => s.id),
    lines,
    totalMinor: sumMinor(lines.map((l) => l.amountMinor)),
  };
}

export function payslipText(slip, currency) {
  const rows = slip.lines.map((l) => `${l.sheetId}  ${l.kind.padEnd(9)} ${String(l.minutes).padStart(5)} min  ${formatMinor(l.amountMinor, currency)}`);
  return [...rows, `total ${formatMinor(slip.totalMinor, currency)}`].join("\n");
}
