// Quay utilisation: how much of a quay's face was taken over a range, in metre-hours, against
// what the quay could have offered. A vessel takes its own length, not its berth's.

import { durationMinutes, HOUR, interval, intersection } from "../../core/time.js";
import { stayOf } from "../records/booking.js";

export function createQuayUtilisation(ctx, parts) {
  const { stores } = parts;

  /** { quayId, usedCmMinutes, offeredCmMinutes, permille } for each quay, in id order. */
  function utilisation(start, end) {
    const range = interval(start, end);
    const minutes = durationMinutes(range);
    return stores.quays.list().map((quay) => {
      let used = 0;
      for (const b of stores.bookings.list((x) => x.quayId === quay.id && x.status !== "cancelled")) {
        const inside = intersection(stayOf(b), range);
        if (inside) used += b.lengthCm * durationMinutes(inside);
      }
      const offered = quay.lengthCm * minutes;
      return { quayId: quay.id, usedCmMinutes: used, offeredCmMinutes: offered, permille: Math.round((used * 1000) / offered) };
    });
  }

  return { utilisation };
}

/**
 * The hour of a range in which a quay's face was most taken: { start, usedCm } over whole hours
 * from the range's start, for the harbour master's congestion notes.
 */
export function peakHour(stores, quayId, range) {
  let peak = null;
  for (let start = range.start; start < range.end; start += HOUR) {
    const hour = { start, end: Math.min(start + HOUR, range.end) };
    let usedCm = 0;
    for (const b of stores.bookings.list((x) => x.quayId === quayId && x.status !== "cancelled")) {
      if (intersection(stayOf(b), hour)) usedCm += b.lengthCm;
    }
    if (!peak || usedCm > peak.usedCm) peak = { start, usedCm };
  }
  return peak;
}
