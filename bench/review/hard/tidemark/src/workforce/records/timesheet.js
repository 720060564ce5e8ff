// A timesheet: what a worker actually worked, from the gate clock. clockIn/clockOut are epoch ms
// (half-open), breakMinutes unpaid, skill the one paid for. Flags are set on submit and read by the foreman who approves.

import { ValidationError } from "../../core/errors.js";
import { durationMinutes, interval } from "../../core/time.js";
import { assertWhole } from "../../core/units.js";
import { required } from "../../core/validate.js";
import { assertSkill } from "./skills.js";

export function newTimesheet(input, id, now) {
  required(input, ["workerId", "skill", "clockIn", "clockOut"]);
  const worked = interval(input.clockIn, input.clockOut);
  const breakMinutes = assertWhole(input.breakMinutes ?? 0, "breakMinutes");
  if (breakMinutes >= durationMinutes(worked)) throw new ValidationError("breakMinutes", "longer than the time worked");
  return {
    id,
    workerId: input.workerId,
    shiftId: input.shiftId ?? null,
    skill: assertSkill(input.skill),
    clockIn: worked.start,
    clockOut: worked.end,
    breakMinutes,
    flags: [],
    status: "submitted",
    submittedAt: now,
    approvedBy: null,
  };
}

/** Paid minutes: the clocked span less the unpaid break. */
export const span = (sheet) => ({ start: sheet.clockIn, end: sheet.clockOut });

export const paidMinutes = (sheet) => Math.round(durationMinutes(span(sheet))) - sheet.breakMinutes;
