// Splits a shift's paid minutes into regular and overtime at the agreement's standard shift.

import { startOfDay } from "../../core/time.js";
import { PAY_RULES } from "./rules.js";

export function splitOvertime(paidMinutes) {
  if (!Number.isInteger(paidMinutes) || paidMinutes < 0) throw new RangeError(`paid minutes: ${paidMinutes}`);
  const regularMinutes = Math.min(paidMinutes, PAY_RULES.standardShiftMinutes);
  return { regularMinutes, overtimeMinutes: paidMinutes - regularMinutes };
}

/** Overtime minutes over a set of timesheets, each shift counted on its own. */
export function overtimeTotal(sheets, paidMinutesOf) {
  return sheets.reduce((sum, sheet) => sum + splitOvertime(paidMinutesOf(sheet)).overtimeMinutes, 0);
}

/**
 * Paid and overtime minutes per UTC day of clock-in, for the weekly overtime sheet the union
 * countersigns. Rows in day order; a day with no sheet has no row.
 */
export function overtimeByDay(sheets, paidMinutesOf) {
  const days = new Map();
  for (const sheet of sheets) {
    const day = startOfDay(sheet.clockIn);
    const paid = paidMinutesOf(sheet);
    const row = days.get(day) ?? { day, paidMinutes: 0, overtimeMinutes: 0, sheets: 0 };
    row.paidMinutes += paid;
    row.overtimeMinutes += splitOvertime(paid).overtimeMinutes;
    row.sheets += 1;
    days.set(day, row);
  }
  return [...days.values()].toSorted((a, b) => a.day - b.day);
}
