// A leave request over whole days: { start, end } half-open, from the first day's midnight to the
// midnight after the last day. Only an approved request keeps a worker off the roster.

import { ValidationError } from "../../core/errors.js";
import { DAY, interval, startOfDay } from "../../core/time.js";
import { oneOf, required } from "../../core/validate.js";

export const LEAVE_KINDS = Object.freeze(["annual", "sick", "training", "unpaid"]);
export const LEAVE_STATUS = Object.freeze(["requested", "approved", "rejected", "cancelled"]);

/** firstDay and lastDay are any time within those days; the request covers both whole days. */
export function newLeave(input, id, now) {
  required(input, ["workerId", "kind", "firstDay", "lastDay"]);
  oneOf(input.kind, LEAVE_KINDS, "kind");
  const start = startOfDay(input.firstDay);
  const end = startOfDay(input.lastDay) + DAY;
  if (end <= start) throw new ValidationError("lastDay", "before the first day");
  return {
    id,
    workerId: input.workerId,
    kind: input.kind,
    ...interval(start, end),
    status: "requested",
    requestedAt: now,
    decidedAt: null,
    note: input.note ? String(input.note).slice(0, 200) : null,
  };
}
