// Creating, confirming and cancelling bookings. Each change takes its berth's lock, re-reads what
// it checks inside the lock, writes the store and only then publishes its event.

import { ConflictError } from "../../core/errors.js";
import { interval } from "../../core/time.js";
import { required } from "../../core/validate.js";
import { bookingRecord, isActive } from "../records/booking.js";
import { BERTH_EVENTS, berthKey } from "../events.js";

export function createBookingService(ctx, parts) {
  const { stores, vessels } = parts;

  /** input: { berthId, vesselId, callId, start, end, status?, holdUntil? }. */
  async function createBooking(input) {
    required(input, ["berthId", "vesselId", "callId", "start", "end"]);
    const stay = interval(input.start, input.end);
    const berth = stores.berths.get(input.berthId);
    const vessel = vessels.getVessel(input.vesselId);
    return ctx.locks.withLock(berthKey(berth.id), async () => {
      parts.bookable.assertBookable({ berth, vessel, stay });
      const record = bookingRecord({
        id: stores.bookingIds.next(),
        berth,
        vessel,
        callId: input.callId,
        ...stay,
        status: input.status ?? "confirmed",
        holdUntil: input.holdUntil,
        createdAt: ctx.clock.now(),
      });
      const row = stores.bookings.insert(record);
      ctx.events.publish(BERTH_EVENTS.bookingCreated, { bookingId: row.id, berthId: row.berthId });
      return row;
    });
  }

  async function confirmBooking(bookingId) {
    const { berthId } = stores.bookings.get(bookingId);
    return ctx.locks.withLock(berthKey(berthId), async () => {
      const booking = stores.bookings.get(bookingId);
      if (booking.status === "confirmed") return booking;
      if (booking.status !== "tentative") throw new ConflictError(`booking ${bookingId} is ${booking.status}`);
      if (booking.holdUntil <= ctx.clock.now()) throw new ConflictError(`the hold on ${bookingId} has lapsed`);
      const row = stores.bookings.update(bookingId, (b) => ({ ...b, status: "confirmed", holdUntil: null }), booking.version);
      ctx.events.publish(BERTH_EVENTS.bookingConfirmed, { bookingId, berthId });
      return row;
    });
  }

  async function cancelBooking(bookingId, reason = "cancelled by agent") {
    const { berthId } = stores.bookings.get(bookingId);
    return ctx.locks.withLock(berthKey(berthId), async () => {
      const booking = stores.bookings.get(bookingId);
      if (!isActive(booking)) throw new ConflictError(`booking ${bookingId} is ${booking.status}`);
      const row = stores.bookings.update(bookingId, (b) => ({ ...b, status: "cancelled", holdUntil: null, cancelReason: reason }), booking.version);
      ctx.events.publish(BERTH_EVENTS.bookingCancelled, { bookingId, berthId, reason });
      return row;
    });
  }

  /** The vessel has sailed: the booking is completed and stays in the plan's history. */
  async function completeBooking(bookingId) {
    const { berthId } = stores.bookings.get(bookingId);
    return ctx.locks.withLock(berthKey(berthId), async () => {
      const booking = stores.bookings.get(bookingId);
      if (booking.status !== "confirmed") throw new ConflictError(`booking ${bookingId} is ${booking.status}`);
      const row = stores.bookings.update(bookingId, (b) => ({ ...b, status: "completed" }), booking.version);
      ctx.events.publish(BERTH_EVENTS.bookingChanged, { bookingId, berthId });
      return row;
    });
  }

  return { createBooking, confirmBooking, cancelBooking, completeBooking };
}
