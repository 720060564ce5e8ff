// Looking a box up by its number is what the gate and the drivers' terminals do most. The cache
// keeps the live record per number and drops it on any event that changes a container.

import { createCache } from "../../core/cache.js";
import { CONTAINER_CHANGES } from "../events.js";
import { normaliseNumber } from "../records/iso6346.js";

export function createNumberCache(ctx, { stores, registry }) {
  const cache = createCache({ clock: ctx.clock, ttlMs: ctx.config.cache.ttlMs, maxEntries: ctx.config.cache.maxEntries });
  let unsubscribes = [];

  function byNumber(number) {
    const key = normaliseNumber(number);
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    return cache.set(key, registry.findByNumber(key));
  }

  function forget({ containerId }) {
    const record = stores.containers.find(containerId);
    if (record) cache.delete(record.number);
  }

  function start() {
    if (unsubscribes.length) return;
    unsubscribes = CONTAINER_CHANGES.map((type) => ctx.events.subscribe(type, forget));
  }

  function stop() {
    for (const off of unsubscribes) off();
    unsubscribes = [];
    cache.clear();
  }

  return { byNumber, start, stop, size: () => cache.size };
}
