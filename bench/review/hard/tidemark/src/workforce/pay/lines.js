// The pay lines of one approved timesheet: regular minutes, overtime minutes, night premium.
// Each line's amount is rounded once (roundMinor); a payslip's total is the sum of its lines.

import { roundMinor } from "../../core/money.js";
import { paidMinutes, span } from "../records/timesheet.js";
import { nightMinutes } from "./night.js";
import { splitOvertime } from "./overtime.js";
import { hourlyRateMinor, minutesAt } from "./rates.js";
import { PAY_RULES } from "./rules.js";

export function payLines(sheet) {
  const hourly = hourlyRateMinor(sheet.skill);
  const paid = paidMinutes(sheet);
  const { regularMinutes, overtimeMinutes } = splitOvertime(paid);
  const night = Math.min(nightMinutes(span(sheet)), paid);
  const line = (kind, minutes, permille) => ({
    sheetId: sheet.id,
    kind,
    minutes,
    amountMinor: roundMinor(minutesAt(minutes, hourly, permille)),
  });
  const lines = [line("regular", regularMinutes, 1000)];
  if (overtimeMinutes > 0) lines.push(line("overtime", overtimeMinutes, PAY_RULES.overtimePermille));
  if (night > 0) lines.push(line("night", night, PAY_RULES.nightPremiumPermille));
  return lines;
}
