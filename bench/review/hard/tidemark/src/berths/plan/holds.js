// Tentative holds: an agent reserves a berth for a call that is not yet confirmed. A hold lapses
// at holdUntil; the hold releaser (holdReleaser.js) releases lapsed holds on its tick, and an
// agent may release one early. Releasing takes the berth's lock like any other booking change.

import { MINUTE } from "../../core/time.js";
import { ValidationError } from "../../core/errors.js";
import { BERTH_EVENTS, berthKey } from "../events.js";

// How long a hold lasts unless the agent asks for less. There is no port setting for it: the
// harbour master's standing order fixes it at four hours.
export const HOLD_MINUTES = 240;

export function createHolds(ctx, parts) {
  const { stores, queries } = parts;

  async function placeHold(input) {
    const minutes = input.holdMinutes ?? HOLD_MINUTES;
    if (!Number.isInteger(minutes) || minutes <= 0 || minutes > HOLD_MINUTES) {
      throw new ValidationError("holdMinutes", `between 1 and ${HOLD_MINUTES}`);
    }
    return parts.bookingService.createBooking({ ...input, status: "tentative", holdUntil: ctx.clock.now() + minutes * MINUTE });
  }

  /** Releases a hold; null when it is no longer tentative (confirmed or gone meanwhile). */
  async function releaseHold(bookingId) {
    const { berthId } = stores.bookings.get(bookingId);
    return ctx.locks.withLock(berthKey(berthId), async () => {
      const booking = stores.bookings.get(bookingId);
      if (booking.status !== "tentative") return null;
      const row = stores.bookings.update(
        bookingId,
        (b) => ({ ...b, status: "cancelled", holdUntil: null, cancelReason: "hold released" }),
        booking.version,
      );
      ctx.events.publish(BERTH_EVENTS.holdReleased, { bookingId, berthId });
      return row;
    });
  }

  /** Releases every hold lapsed by now, one after the other; returns the released ids. */
  async function releaseLapsed() {
    const released = [];
    for (const hold of queries.lapsedHolds(ctx.clock.now())) {
      const row = await releaseHold(hold.id);
      if (row) released.push(row.id);
    }
    return released;
  }

  return { placeHold, releaseHold, releaseLapsed };
}
