// Runs dunning once a day at 06:00 UTC, before the credit controller's shift. start() waits for
// the first 06:00 and then repeats every day; stop() cancels whichever handle is live.

import { DAY, HOUR, startOfDay } from "../../core/time.js";

export const RUN_AT_MS = 6 * HOUR;

/** The first 06:00 UTC strictly after `now`. */
export function nextRunAt(now) {
  const today = startOfDay(now) + RUN_AT_MS;
  return today > now ? today : today + DAY;
}

export function createDunningScheduler(ctx, run) {
  let first = null;
  let daily = null;
  let runs = 0;

  function runSafely() {
    runs++;
    try {
      run.runOnce();
    } catch (error) {
      ctx.log("error", "billing: dunning run failed", { error: error.message });
    }
  }

  return {
    start() {
      if (first || daily) return;
      first = ctx.scheduler.after(nextRunAt(ctx.clock.now()) - ctx.clock.now(), () => {
        first = null;
        runSafely();
        daily = ctx.scheduler.every(DAY, runSafely);
      });
    },
    stop() {
      first?.cancel();
      daily?.cancel();
      first = null;
      daily = null;
    },
    runs: () => runs,
    running: () => first !== null || daily !== null,
  };
}
