// Dwell: how long a box has stood in the yard. A started day counts as a day (chargeableDays); the
// first cargo.dwellFreeDays of them are free.

import { chargeableDays, DAY, interval } from "../../core/time.js";

/** Days a box has been (or was) in the yard, counted the tariff's way; 0 before it came in. */
export function dwellDays(container, now) {
  if (container.gateInAt === null) return 0;
  const end = container.gateOutAt ?? now;
  if (end <= container.gateInAt) return 0;
  return chargeableDays(interval(container.gateInAt, end));
}

export const chargeableDwellDays = (days, freeDays) => Math.max(0, days - freeDays);

/** When the free time runs out: charging starts with the day after it. */
export const freeTimeEnds = (container, freeDays) => container.gateInAt + freeDays * DAY;
