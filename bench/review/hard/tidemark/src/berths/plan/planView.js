// The plan of one berth as the planners' screen reads it many times a second: its active bookings
// in stay order, cached and dropped on every event that can change the berth's plan.

import { createCache } from "../../core/cache.js";
import { byKeys, byNumber, byString } from "../../core/sort.js";
import { berthsOfEvent, PLAN_EVENTS } from "../events.js";

const byStay = byKeys(byNumber("start"), byString("id"));

export function createPlanView(ctx, parts) {
  const { queries } = parts;
  const cache = createCache({ clock: ctx.clock, ttlMs: ctx.config.cache.ttlMs, maxEntries: ctx.config.cache.maxEntries });
  let unsubscribes = [];

  /** Active bookings of the berth by start; a frozen array shared by every reader. */
  function forBerth(berthId) {
    const hit = cache.get(berthId);
    if (hit) return hit;
    return cache.set(berthId, Object.freeze(queries.activeOnBerth(berthId).toSorted(byStay)));
  }

  function invalidate(payload) {
    for (const berthId of berthsOfEvent(payload)) cache.delete(berthId);
  }

  return {
    forBerth,
    start() {
      if (unsubscribes.length > 0) return;
      unsubscribes = PLAN_EVENTS.map((type) => ctx.events.subscribe(type, invalidate));
    },
    stop() {
      for (const off of unsubscribes) off();
      unsubscribes = [];
      cache.clear();
    },
    get cached() {
      return cache.size;
    },
  };
}
