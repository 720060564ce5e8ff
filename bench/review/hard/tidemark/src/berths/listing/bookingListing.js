// The paged bookings listing behind the agents' and planners' screens: filtered by berth, quay,
// vessel, call or status and by a time range the stays overlap, paged by cursor over booking ids.

import { ValidationError } from "../../core/errors.js";
import { paginate } from "../../core/paging.js";
import { interval, overlaps } from "../../core/time.js";
import { oneOf } from "../../core/validate.js";
import { BOOKING_STATUSES, stayOf } from "../records/booking.js";

function matcher(query) {
  const checks = [];
  for (const field of ["berthId", "quayId", "vesselId", "callId"]) {
    if (query[field] !== undefined) checks.push((b) => b[field] === query[field]);
  }
  if (query.status !== undefined) {
    const statuses = Array.isArray(query.status) ? query.status : [query.status];
    statuses.forEach((s) => oneOf(s, BOOKING_STATUSES, "status"));
    checks.push((b) => statuses.includes(b.status));
  }
  if (query.from !== undefined || query.to !== undefined) {
    if (query.from === undefined || query.to === undefined) throw new ValidationError("to", "a range needs both from and to");
    const range = interval(query.from, query.to);
    checks.push((b) => overlaps(stayOf(b), range));
  }
  return (b) => checks.every((check) => check(b));
}

const row = (b) => ({
  id: b.id,
  berthId: b.berthId,
  vesselId: b.vesselId,
  callId: b.callId,
  status: b.status,
  start: b.start,
  end: b.end,
  holdUntil: b.holdUntil,
});

export function createBookingListing(ctx, parts) {
  const { stores } = parts;
  return {
    listBookings(query = {}) {
      const page = paginate(stores.bookings.list(matcher(query)), { limit: query.limit, cursor: query.cursor }, ctx.config);
      return { items: page.items.map(row), nextCursor: page.nextCursor };
    },
  };
}
