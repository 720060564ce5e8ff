// Whether approved leave keeps a worker off a span. Leave is whole days, half-open, so a shift
// starting at midnight after the last day of leave is fine.

import { chargeableDays, intersection, overlaps } from "../../core/time.js";

export function approvedLeaveOf(leave, workerId) {
  return leave.list((l) => l.workerId === workerId && l.status === "approved");
}

export function onLeave(leave, workerId, span) {
  return approvedLeaveOf(leave, workerId).some((l) => overlaps(l, span));
}

/** Approved leave of any worker overlapping a window, in id order. */
export function leaveIn(leave, window) {
  return leave.list((l) => l.status === "approved" && overlaps(l, window));
}

/**
 * Days of approved leave a worker has inside a window (a started day counts, the way the leave
 * balance is kept). Leave is whole days, so the count is exact for a window of whole days.
 */
export function leaveDaysIn(leave, workerId, window) {
  let days = 0;
  for (const request of approvedLeaveOf(leave, workerId)) {
    const part = intersection(request, window);
    if (part) days += chargeableDays(part);
  }
  return days;
}

/** Whole-day leave balance: the annual entitlement less annual leave approved in the year. */
export function annualBalance(leave, workerId, year, entitlementDays = 25) {
  const start = Date.UTC(year, 0, 1);
  const end = Date.UTC(year + 1, 0, 1);
  const annual = approvedLeaveOf(leave, workerId).filter((l) => l.kind === "annual");
  const taken = annual.map((l) => intersection(l, { start, end })).filter(Boolean);
  return entitlementDays - taken.reduce((sum, part) => sum + chargeableDays(part), 0);
}
