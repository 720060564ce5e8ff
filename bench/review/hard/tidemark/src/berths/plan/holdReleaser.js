// Releases lapsed holds on the scheduler's tick. start() schedules, stop() cancels; a tick that
// finds the previous run still going skips, so two runs never release the same hold twice.

export function createHoldReleaser(ctx, holds) {
  let handle = null;
  let running = null;

  async function runOnce() {
    if (running) return [];
    running = holds.releaseLapsed();
    try {
      const released = await running;
      if (released.length > 0) ctx.log("info", "holds released", { count: released.length, bookingIds: released });
      return released;
    } catch (error) {
      ctx.log("error", "hold release failed", { error: error.message });
      return [];
    } finally {
      running = null;
    }
  }

  return {
    start() {
      if (handle) return;
      handle = ctx.scheduler.every(ctx.config.scheduler.tickMs, () => {
        runOnce();
      });
    },
    stop() {
      handle?.cancel();
      handle = null;
    },
    runOnce,
    get running() {
      return handle !== null;
    },
  };
}
