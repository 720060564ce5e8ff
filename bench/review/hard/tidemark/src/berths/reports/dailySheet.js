// The daily berth sheet the mooring gangs take to the quay: every active booking touching the UTC
// day, by berth and then by start, one line each (formatters/bookingLine.js).

import { DAY, startOfDay } from "../../core/time.js";
import { byKeys, byNumber, byString } from "../../core/sort.js";
import { BOOKING_LINE_HEADER, formatBookingLine } from "../formatters/bookingLine.js";
import { timeLabel } from "../formatters/timeLabel.js";

const byBerthThenStart = byKeys(byString("berthId"), byNumber("start"), byString("id"));

export function createDailySheet(ctx, parts) {
  const { stores, queries } = parts;

  function bookingsOfDay(t) {
    const day = { start: startOfDay(t), end: startOfDay(t) + DAY };
    return { day, bookings: queries.activeDuring(day).toSorted(byBerthThenStart) };
  }

  function dailySheet(t) {
    const { day, bookings } = bookingsOfDay(t);
    const lines = bookings.map((b) => formatBookingLine(b, stores.berths.get(b.berthId)));
    return [`Alvarim berth sheet ${timeLabel(day.start).slice(0, 5)}`, BOOKING_LINE_HEADER, ...lines].join("\n");
  }

  return { dailySheet, bookingsOfDay };
}
