// Read-side lookups on bookings, shared by the services and reports. Lists come from the store
// in id order; whoever needs another order sorts a copy.

import { overlaps } from "../../core/time.js";
import { isActive, isHold, stayOf } from "../records/booking.js";

export function createPlanQueries(stores) {
  return {
    findBooking: (id) => stores.bookings.find(id),
    getBooking: (id) => stores.bookings.get(id),
    activeOnBerth: (berthId) => stores.bookings.list((b) => b.berthId === berthId && isActive(b)),
    activeOnQuay: (quayId) => stores.bookings.list((b) => b.quayId === quayId && isActive(b)),
    /** Active bookings of any berth whose stay overlaps the range. */
    activeDuring: (range) => stores.bookings.list((b) => isActive(b) && overlaps(stayOf(b), range)),
    /** Tentative bookings whose hold has lapsed at `now`. */
    lapsedHolds: (now) => stores.bookings.list((b) => isHold(b) && b.holdUntil <= now),
    bookingsOfCall: (callId) => stores.bookings.list((b) => b.callId === callId),
  };
}
