// Flags a foreman reads before approving a timesheet. They never block a submission: the gate
// clock is what happened, the flags say what to look at.

import { MINUTE } from "../../core/time.js";
import { paidMinutes } from "../records/timesheet.js";

/** Minutes of slack on the rostered start before a clock-in counts as late. */
export const LATE_AFTER_MINUTES = 15;

function lengthFlags(config, sheet) {
  return paidMinutes(sheet) > config.workforce.maxShiftMinutes ? ["long_shift"] : [];
}

function rosterFlags(sheet, shift) {
  if (!shift) return ["off_roster"];
  const flags = [];
  if (sheet.clockIn > shift.start + LATE_AFTER_MINUTES * MINUTE) flags.push("late");
  if (shift.status === "released") flags.push("released_shift");
  if (sheet.workerId !== shift.workerId) flags.push("wrong_worker");
  return flags;
}

/** `shift` is the rostered shift the sheet was clocked against, or null. */
export function flagsFor(config, sheet, { shift = null } = {}) {
  return [...lengthFlags(config, sheet), ...rosterFlags(sheet, shift)];
}
