// Berth occupancy over a range: the minutes each berth had a vessel alongside (active or
// completed bookings), as a share of the range in permille. A booking reaching outside the range
// counts only its part inside.

import { durationMinutes, interval, intersection } from "../../core/time.js";
import { stayOf } from "../records/booking.js";

const occupying = (b) => b.status === "confirmed" || b.status === "completed" || b.status === "tentative";

export function createOccupancy(ctx, parts) {
  const { stores } = parts;

  function occupiedMinutes(berthId, range) {
    let minutes = 0;
    for (const b of stores.bookings.list((x) => x.berthId === berthId && occupying(x))) {
      const inside = intersection(stayOf(b), range);
      if (inside) minutes += durationMinutes(inside);
    }
    return minutes;
  }

  /** One row per berth in id order: { berthId, quayId, occupiedMinutes, permille }. */
  function occupancyReport(start, end) {
    const range = interval(start, end);
    const total = durationMinutes(range);
    return stores.berths.list().map((berth) => {
      const minutes = occupiedMinutes(berth.id, range);
      return { berthId: berth.id, quayId: berth.quayId, occupiedMinutes: minutes, permille: Math.round((minutes * 1000) / total) };
    });
  }

  /** The quays' averages of their berths' occupancy, each berth weighed by its minutes. */
  function quayOccupancy(start, end) {
    const rows = occupancyReport(start, end);
    const total = durationMinutes(interval(start, end));
    const byQuay = new Map();
    for (const row of rows) {
      const q = byQuay.get(row.quayId) ?? { quayId: row.quayId, berths: 0, occupiedMinutes: 0 };
      q.berths += 1;
      q.occupiedMinutes += row.occupiedMinutes;
      byQuay.set(row.quayId, q);
    }
    return [...byQuay.values()].map((q) => ({ ...q, permille: Math.round((q.occupiedMinutes * 1000) / (total * q.berths)) }));
  }

  return { occupancyReport, quayOccupancy, occupiedMinutes };
}
