// Clears sessions that are over, every sessions.sweepEveryMinutes. An expired session is already
// refused by findSession; the sweep only keeps the store from growing through a long watch.

import { MINUTE } from "../../core/time.js";

export function createSessionSweeper(ctx, { sessions, settings }) {
  let handle = null;

  function sweep() {
    const removed = sessions.removeExpired(ctx.clock.now());
    if (removed > 0) ctx.log("info", "sessions swept", { removed });
    return removed;
  }

  return {
    sweep,
    start() {
      if (handle) return;
      handle = ctx.scheduler.every(settings.sessions.sweepEveryMinutes * MINUTE, sweep);
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
