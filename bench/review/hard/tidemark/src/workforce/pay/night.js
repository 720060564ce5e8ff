// Night minutes: the part of a span inside a night window. Night `day` is the window that opens at
// 22:00 on `day` and closes at 06:00 the next morning, so the early hours of a day belong to the
// previous day's night.

import { DAY, MINUTE, intersection, startOfDay } from "../../core/time.js";
import { PAY_RULES } from "./rules.js";

export function nightWindow(day) {
  const midnight = startOfDay(day);
  return {
    start: midnight + PAY_RULES.nightStartMinutes * MINUTE,
    end: midnight + DAY + PAY_RULES.nightEndMinutes * MINUTE,
  };
}

/** Whole minutes of `span` inside night windows. */
export function nightMinutes(span) {
  let ms = 0;
  for (let day = startOfDay(span.start) - DAY; day < span.end; day += DAY) {
    const part = intersection(nightWindow(day), span);
    if (part) ms += part.end - part.start;
  }
  return Math.floor(ms / MINUTE);
}
