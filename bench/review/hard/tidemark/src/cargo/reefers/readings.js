// Temperature readings from the reefer units, one record per reading. Old readings are pruned by
// the monitor so the table holds about a day per box.

import { DAY } from "../../core/time.js";

export const KEEP_READINGS_MS = DAY;

export function createReadings(ctx, stores) {
  function record(containerId, tempC) {
    return stores.readings.insert({ id: stores.ids.reading.next(), containerId, tempC, at: ctx.clock.now() });
  }

  /** A box's readings, oldest first (ids follow time). */
  const readingsOf = (containerId) => stores.readings.list((r) => r.containerId === containerId);

  /** The newest reading of a box, or null. */
  const latest = (containerId) => readingsOf(containerId).at(-1) ?? null;

  /** Mean of the readings since a time, to a tenth of a degree; null without readings. */
  function averageSince(containerId, since) {
    const recent = readingsOf(containerId).filter((r) => r.at >= since);
    if (recent.length === 0) return null;
    return Math.round((recent.reduce((s, r) => s + r.tempC, 0) / recent.length) * 10) / 10;
  }

  /** "rising", "falling" or "steady" over the last readings: what the reefer technician asks first. */
  function trend(containerId, last = 4) {
    const recent = readingsOf(containerId).slice(-last);
    if (recent.length < 2) return "steady";
    const change = Math.round((recent.at(-1).tempC - recent[0].tempC) * 10) / 10;
    return change >= 0.5 ? "rising" : change <= -0.5 ? "falling" : "steady";
  }

  function prune() {
    const before = ctx.clock.now() - KEEP_READINGS_MS;
    let removed = 0;
    for (const r of stores.readings.list((r) => r.at < before)) removed += stores.readings.remove(r.id) ? 1 : 0;
    return removed;
  }

  return { record, readingsOf, latest, averageSince, trend, prune };
}
