// Hours per worker over a period: minutes rostered (shifts clipped to the period), minutes paid
// (approved timesheets clocked in the period), overtime and night minutes. Rows in worker id order.

import { MINUTE, contains, intersection } from "../../core/time.js";
import { isLive } from "../records/shift.js";
import { paidMinutes, span } from "../records/timesheet.js";
import { nightMinutes } from "../pay/night.js";
import { splitOvertime } from "../pay/overtime.js";

export function hoursReport(stores, period) {
  const rows = new Map();
  const row = (workerId) => {
    if (!rows.has(workerId)) rows.set(workerId, { workerId, rosteredMinutes: 0, paidMinutes: 0, overtimeMinutes: 0, nightMinutes: 0 });
    return rows.get(workerId);
  };
  for (const shift of stores.shifts.list(isLive)) {
    const part = intersection(shift, period);
    if (part) row(shift.workerId).rosteredMinutes += (part.end - part.start) / MINUTE;
  }
  for (const sheet of stores.timesheets.list((t) => t.status === "approved" && contains(period, t.clockIn))) {
    const r = row(sheet.workerId);
    const paid = paidMinutes(sheet);
    r.paidMinutes += paid;
    r.overtimeMinutes += splitOvertime(paid).overtimeMinutes;
    r.nightMinutes += Math.min(nightMinutes(span(sheet)), paid);
  }
  return [...rows.values()].toSorted((a, b) => (a.workerId < b.workerId ? -1 : 1));
}
