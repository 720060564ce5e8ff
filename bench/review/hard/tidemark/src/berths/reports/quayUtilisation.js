// Quay utilisation: how much of a quay's face was taken over a range, in metre-hours, against
// what the quay could have offered. A vessel takes its own length, not its berth's.

import { durationMinutes, interval, intersection } from "../../core/time.js";
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
