// Night housekeeping: boxes a late VGM left out of weight order (containers/vgm.js) are moved to a
// stack that can carry them while the yard is quiet. It runs at 02:00 UTC every night through the
// scheduler; stop() cancels whichever handle is live. A box with another on top waits for the next
// night (the restow of the box over it is a planner's decision, not the night's).

import { DomainError } from "../../core/errors.js";
import { DAY, HOUR } from "../../core/time.js";
import { stackKey } from "../records/slot.js";

export const RUN_AT_HOUR = 2;

/** Milliseconds from now until the next 02:00 UTC (a whole day when it is 02:00 exactly). */
export function untilNextRun(now) {
  const today = Math.floor(now / DAY) * DAY + RUN_AT_HOUR * HOUR;
  return today > now ? today - now : today + DAY - now;
}

export function createHousekeeping(ctx, { vgm, occupancy, suggester, moves }) {
  let handle = null;

  async function run() {
    const done = [];
    const waiting = [];
    for (const box of vgm.awaitingRestow()) {
      const top = occupancy.topOf(box.slot.blockId, box.slot.row, box.slot.bay);
      if (top.id !== box.id) {
        waiting.push(box.id);
        continue;
      }
      const to = suggester.suggestSlot(box.slot.blockId, box, { avoidStack: stackKey(box.slot) });
      if (to === null) {
        waiting.push(box.id);
        continue;
      }
      try {
        await moves.moveContainer(box.id, to, { reason: "housekeeping" });
        done.push(box.id);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        ctx.log("warn", "housekeeping move refused", { containerId: box.id, error: error.message });
        waiting.push(box.id);
      }
    }
    ctx.log("info", "housekeeping", { moved: done.length, waiting: waiting.length });
    return { moved: done, waiting };
  }

  const runLogged = () => {
    run().catch((error) => ctx.log("error", "housekeeping failed", { error: error.message }));
  };

  function start() {
    if (handle) return;
    handle = ctx.scheduler.after(untilNextRun(ctx.clock.now()), () => {
      handle = ctx.scheduler.every(DAY, runLogged);
      runLogged();
    });
  }

  function stop() {
    handle?.cancel();
    handle = null;
  }

  return { run, start, stop, running: () => handle !== null };
}
