// Summaries of vessels by IMO for the AIS import, which looks every line up. Entries live for
// cache.ttlMs and are dropped when the vessel changes; start() subscribes, stop() lets go.

import { createCache } from "../../core/cache.js";
import { sizeClassOf } from "./size-class.js";

export function createVesselCache(ctx, { register }) {
  const cache = createCache({ clock: ctx.clock, ttlMs: ctx.config.cache.ttlMs, maxEntries: ctx.config.cache.maxEntries });
  let unsubscribe = [];

  const summarise = (vessel) => ({ id: vessel.id, imo: vessel.imo, name: vessel.name, sizeClass: sizeClassOf(vessel), draughtCm: vessel.draughtCm });

  /** The summary of the vessel with this IMO number, or null when the register does not know it. */
  function byImo(imo) {
    const hit = cache.get(imo);
    if (hit) return hit;
    const vessel = register.findByImo(imo);
    return vessel ? cache.set(vessel.imo, summarise(vessel)) : null;
  }

  return {
    byImo,
    start() {
      unsubscribe = [
        ctx.events.subscribe("vessel.updated", ({ imo }) => cache.delete(imo)),
        ctx.events.subscribe("vessel.registered", ({ imo }) => cache.delete(imo)),
      ];
    },
    stop() {
      for (const off of unsubscribe) off();
      unsubscribe = [];
      cache.clear();
    },
    get size() {
      return cache.size;
    },
  };
}
