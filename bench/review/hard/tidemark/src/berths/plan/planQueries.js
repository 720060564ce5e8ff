// Read-side lookups on bookings, shared by the services and reports. Lists come from the store
// in id order; whoever needs another order sorts a copy.

import { overlaps } from "../../core/time.js";
import { byKeys, byNumber, byString } from "../../core/sort.js";
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

/** The next active booking of a berth starting at or after t, or null. */
export function nextOnBerth(queries, berthId, t) {
  return queries.activeOnBerth(berthId).filter((b) => b.start >= t).toSorted(byNumber("start"))[0] ?? null;
}

/** A vessel's bookings across the port in stay order, for the agent's call sheet. */
export function bookingsOfVessel(stores, vesselId) {
  return stores.bookings.list((b) => b.vesselId === vesselId).toSorted(byKeys(byNumber("start"), byString("id")));
}

/** How many bookings of each status a berth has had, for the harbour master's statistics. */
export function statusCounts(stores, berthId) {
  const counts = { tentative: 0, confirmed: 0, cancelled: 0, completed: 0 };
  for (const b of stores.bookings.list((x) => x.berthId === berthId)) counts[b.status] += 1;
  return counts;
}
