// Bookings are taken up to berthing.bookingHorizonDays ahead of today; beyond that the tide
// tables are not published and the plan is not binding. A stay must end after now (no booking of
// the past) and no later than the horizon.

import { ValidationError } from "../../core/errors.js";
import { DAY } from "../../core/time.js";

/** The last instant bookings may reach, counted from the clock's now. */
export function horizonEnd(ctx) {
  return ctx.clock.now() + ctx.config.berthing.bookingHorizonDays * DAY;
}

/** The range within which the plan takes bookings: [now, horizon). */
export function bookingRange(ctx) {
  const now = ctx.clock.now();
  return { start: now, end: horizonEnd(ctx) };
}

export function assertWithinHorizon(ctx, stay) {
  const now = ctx.clock.now();
  if (stay.end <= now) throw new ValidationError("end", "the stay is over already");
  const last = horizonEnd(ctx);
  if (stay.end > last) {
    throw new ValidationError("end", `beyond the booking horizon of ${ctx.config.berthing.bookingHorizonDays} days`);
  }
  return stay;
}
