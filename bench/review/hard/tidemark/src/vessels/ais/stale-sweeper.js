// Positions go stale when a vessel stops reporting: the receiver lost her behind the headland, or
// her transponder is off. The sweeper runs on the scheduler, flags latest positions older than
// STALE_AFTER_MINUTES and announces each one once. stop() cancels the timer start() made.

import { MINUTE } from "../../core/time.js";

export const STALE_AFTER_MINUTES = 15;
export const SWEEP_EVERY_MS = MINUTE;

export function createStaleSweeper(ctx, { positions }) {
  let handle = null;

  /** Flags what has gone stale since the last sweep; returns the vessel ids flagged. */
  function sweep() {
    const cutoff = ctx.clock.now() - STALE_AFTER_MINUTES * MINUTE;
    const flagged = [];
    for (const position of positions.allLatest()) {
      if (position.stale || position.at > cutoff) continue;
      if (positions.markStale(position.vesselId)) {
        flagged.push(position.vesselId);
        ctx.events.publish("vessel.position_stale", { vesselId: position.vesselId, lastAt: position.at });
      }
    }
    return flagged;
  }

  return {
    sweep,
    start() {
      if (handle) return;
      handle = ctx.scheduler.every(SWEEP_EVERY_MS, sweep);
    },
    stop() {
      handle?.cancel();
      handle = null;
    },
    get running() {
      return handle !== null;
    },
  };
}
