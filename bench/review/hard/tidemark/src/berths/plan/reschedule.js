// Changing a booking's stay at its berth: a new ETA, a longer stay for a crane breakdown. The new
// stay passes the same checks as a new booking (ignoring the booking itself).

import { ConflictError } from "../../core/errors.js";
import { interval, MINUTE } from "../../core/time.js";
import { isActive } from "../records/booking.js";
import { BERTH_EVENTS, berthKey } from "../events.js";

export function createReschedule(ctx, parts) {
  const { stores } = parts;

  async function changeStay(bookingId, { start, end }) {
    const stay = interval(start, end);
    const { berthId } = stores.bookings.get(bookingId);
    return ctx.locks.withLock(berthKey(berthId), async () => {
      const booking = stores.bookings.get(bookingId);
      if (!isActive(booking)) throw new ConflictError(`booking ${bookingId} is ${booking.status}`);
      const berth = stores.berths.get(booking.berthId);
      const vessel = { lengthCm: booking.lengthCm, draughtCm: booking.draughtCm, type: booking.vesselType };
      parts.bookable.assertBookable({ berth, vessel, stay, ignoreId: booking.id });
      const row = stores.bookings.update(bookingId, (b) => ({ ...b, start: stay.start, end: stay.end }), booking.version);
      ctx.events.publish(BERTH_EVENTS.bookingChanged, { bookingId, berthId });
      return row;
    });
  }

  /** Moves the whole stay by `minutes` (negative: earlier), keeping its length. */
  async function shiftStay(bookingId, minutes) {
    const booking = stores.bookings.get(bookingId);
    const by = minutes * MINUTE;
    return changeStay(bookingId, { start: booking.start + by, end: booking.end + by });
  }

  return { changeStay, shiftStay };
}
