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

  function prune() {
    const before = ctx.clock.now() - KEEP_READINGS_MS;
    let removed = 0;
    for (const r of stores.readings.list((r) => r.at < before)) removed += stores.readings.remove(r.id) ? 1 : 0;
    return removed;
  }

  return { record, readingsOf, latest, prune };
}
