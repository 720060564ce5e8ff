// A booked stay lasts at least berthing.minStayMinutes: shorter slots cost the mooring gang a
// turn-out for nothing and the planners never offer them.

import { ValidationError } from "../../core/errors.js";
import { durationMinutes, MINUTE } from "../../core/time.js";

export function assertMinStay(ctx, stay) {
  const minMinutes = ctx.config.berthing.minStayMinutes;
  const minutes = durationMinutes(stay);
  if (minutes < minMinutes) throw new ValidationError("end", `a stay of ${minutes} min is shorter than ${minMinutes} min`);
  return minutes;
}

/** The earliest end a stay starting at `start` may have. */
export function earliestEnd(ctx, start) {
  return start + ctx.config.berthing.minStayMinutes * MINUTE;
}
