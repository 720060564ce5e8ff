// Events the berth module publishes, always after the store write. Payloads carry ids (and the
// berth ids a change touched) so a subscriber reads the records it needs from the store.

export const BERTH_EVENTS = Object.freeze({
  bookingCreated: "berths.booking.created", // { bookingId, berthId }
  bookingConfirmed: "berths.booking.confirmed", // { bookingId, berthId }
  bookingCancelled: "berths.booking.cancelled", // { bookingId, berthId, reason }
  bookingMoved: "berths.booking.moved", // { bookingId, fromBerthId, toBerthId }
  bookingChanged: "berths.booking.changed", // { bookingId, berthId }
  holdReleased: "berths.hold.released", // { bookingId, berthId }
  closureAdded: "berths.closure.added", // { closureId, berthId }
  tidesLoaded: "berths.tides.loaded", // { count, from, to }
});

/** Every event after which a berth's plan may differ. */
export const PLAN_EVENTS = Object.freeze([
  BERTH_EVENTS.bookingCreated,
  BERTH_EVENTS.bookingConfirmed,
  BERTH_EVENTS.bookingCancelled,
  BERTH_EVENTS.bookingMoved,
  BERTH_EVENTS.bookingChanged,
  BERTH_EVENTS.holdReleased,
  BERTH_EVENTS.closureAdded,
]);

/** The berths an event's payload touched. */
export function berthsOfEvent(payload) {
  if (payload.fromBerthId) return [payload.fromBerthId, payload.toBerthId];
  return payload.berthId ? [payload.berthId] : [];
}

export const berthKey = (berthId) => `berth:${berthId}`;
