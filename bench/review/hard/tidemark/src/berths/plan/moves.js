// Moving a booking to another berth (same stay). The move takes both berths' keys in one
// withLocks call, so two moves between the same pair never wait on each other in opposite order.

import { ConflictError, ValidationError } from "../../core/errors.js";
import { isActive, stayOf } from "../records/booking.js";
import { BERTH_EVENTS, berthKey } from "../events.js";

export function createMoves(ctx, parts) {
  const { stores } = parts;

  async function moveBooking(bookingId, toBerthId) {
    const { berthId: fromBerthId } = stores.bookings.get(bookingId);
    if (fromBerthId === toBerthId) throw new ValidationError("toBerthId", "the booking is at that berth already");
    const target = stores.berths.get(toBerthId);
    return ctx.locks.withLocks([berthKey(fromBerthId), berthKey(toBerthId)], async () => {
      const booking = stores.bookings.get(bookingId);
      if (booking.berthId !== fromBerthId) throw new ConflictError(`booking ${bookingId} moved meanwhile`);
      if (!isActive(booking)) throw new ConflictError(`booking ${bookingId} is ${booking.status}`);
      const vessel = { lengthCm: booking.lengthCm, draughtCm: booking.draughtCm, type: booking.vesselType };
      parts.bookable.assertBookable({ berth: target, vessel, stay: stayOf(booking), ignoreId: booking.id });
      const row = stores.bookings.update(
        bookingId,
        (b) => ({ ...b, berthId: target.id, quayId: target.quayId }),
        booking.version,
      );
      ctx.events.publish(BERTH_EVENTS.bookingMoved, { bookingId, fromBerthId, toBerthId: target.id });
      return row;
    });
  }

  return { moveBooking };
}
