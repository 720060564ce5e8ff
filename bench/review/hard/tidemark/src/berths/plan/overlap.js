// Two active bookings of one berth must not overlap. Stays are half-open, so a vessel may come
// alongside the minute the previous one has left.

import { durationMinutes, intersection, overlaps } from "../../core/time.js";
import { isActive, stayOf } from "../records/booking.js";

/** Active bookings among `bookings` whose stay overlaps `stay`; `ignoreId` is the booking being changed. */
export function conflictsOnBerth(bookings, stay, ignoreId = null) {
  return bookings.filter((b) => b.id !== ignoreId && isActive(b) && overlaps(stayOf(b), stay));
}

/** A one-line reason for a refusal, naming the first conflicting booking. */
export function describeConflict(conflicts) {
  if (conflicts.length === 0) return null;
  const first = conflicts[0];
  const more = conflicts.length > 1 ? ` and ${conflicts.length - 1} more` : "";
  return `${first.berthId} is booked by ${first.id} (${first.vesselId})${more}`;
}

/** Minutes two stays share (0 when they do not overlap). */
export function overlapMinutes(a, b) {
  const shared = intersection(a, b);
  return shared ? durationMinutes(shared) : 0;
}

/** The conflicting booking that shares the most time with the stay, for the planners' hint. */
export function worstConflict(conflicts, stay) {
  let worst = null;
  for (const b of conflicts) {
    const minutes = overlapMinutes(stayOf(b), stay);
    if (!worst || minutes > worst.minutes) worst = { booking: b, minutes };
  }
  return worst;
}
