// Dwell: how long a box has stood in the yard. A started day counts as a day (chargeableDays); the
// first cargo.dwellFreeDays of them are free. The yard's dwell bands are what the lines' agents see.

import { chargeableDays, DAY, durationMinutes, interval } from "../../core/time.js";

/** Days a box has been (or was) in the yard, counted the tariff's way; 0 before it came in. */
export function dwellDays(container, now) {
  if (container.gateInAt === null) return 0;
  const end = container.gateOutAt ?? now;
  if (end <= container.gateInAt) return 0;
  return chargeableDays(interval(container.gateInAt, end));
}

/** Whole minutes in the yard so far (or until it left), for the planners' averages. */
export function dwellMinutes(container, now) {
  if (container.gateInAt === null) return 0;
  const end = container.gateOutAt ?? now;
  if (end <= container.gateInAt) return 0;
  return Math.floor(durationMinutes(interval(container.gateInAt, end)));
}

export const chargeableDwellDays = (days, freeDays) => Math.max(0, days - freeDays);

/** When the free time runs out: charging starts with the day after it. */
export const freeTimeEnds = (container, freeDays) => container.gateInAt + freeDays * DAY;

/** Free days a box still has, 0 once they are used up. */
export const freeDaysLeft = (container, now, freeDays) => Math.max(0, freeDays - dwellDays(container, now));

/** The bands the dwell statistics are kept in, by days in the yard. */
export const DWELL_BANDS = Object.freeze([
  Object.freeze({ name: "0-5", upTo: 5 }),
  Object.freeze({ name: "6-10", upTo: 10 }),
  Object.freeze({ name: "11-20", upTo: 20 }),
  Object.freeze({ name: "21+", upTo: Infinity }),
]);

export const dwellBand = (days) => DWELL_BANDS.find((band) => days <= band.upTo).name;
