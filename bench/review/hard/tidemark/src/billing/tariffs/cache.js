// Pricing a busy day looks up the same few tariffs thousands of times. The cache keeps the version
// in force per code and UTC day, and forgets everything when any tariff changes.

import { createCache } from "../../core/cache.js";
import { contains, covers, DAY, startOfDay } from "../../core/time.js";
import { validityOf } from "../records/tariff.js";
import { BILLING_EVENTS } from "../events.js";

export function createTariffCache(ctx, registry) {
  const cache = createCache({ clock: ctx.clock, ttlMs: ctx.config.cache.ttlMs, maxEntries: ctx.config.cache.maxEntries });
  let hits = 0;
  let misses = 0;

  const off = ctx.events.subscribe(BILLING_EVENTS.tariffChanged, () => cache.clear());

  /**
   * Same contract as registry.effectiveTariff. Keyed by day only when no version of the code
   * changes inside that day; a version starting mid-day is looked up every time.
   */
  function effectiveTariff(code, at) {
    const key = `${code}@${startOfDay(at)}`;
    const hit = cache.get(key);
    if (hit !== undefined && contains(hit.day, at)) {
      hits++;
      return hit.tariff;
    }
    misses++;
    const tariff = registry.effectiveTariff(code, at);
    const day = { start: startOfDay(at), end: startOfDay(at) + DAY };
    if (tariff && covers(validityOf(tariff), day)) cache.set(key, { tariff, day });
    return tariff;
  }

  return {
    effectiveTariff,
    stats: () => ({ hits, misses, size: cache.size }),
    stop: () => off(),
  };
}
