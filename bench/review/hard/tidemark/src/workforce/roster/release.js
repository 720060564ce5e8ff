// Takes shifts off the roster. A released shift stays on file (status "released") so the
// timesheet of a half-worked shift still finds it.

import { EVENTS, workerKey } from "../events.js";
import { isLive } from "../records/shift.js";

export function createRelease({ ctx, stores }) {
  const { shifts } = stores;

  function markReleased(id) {
    const released = shifts.update(id, (s) => ({ ...s, status: "released", releasedAt: ctx.clock.now() }));
    ctx.events.publish(EVENTS.shiftReleased, { shiftId: id, workerId: released.workerId, operationId: released.operationId });
    return released;
  }

  async function releaseShift(id) {
    const shift = shifts.get(id);
    return ctx.locks.withLock(workerKey(shift.workerId), async () => {
      const current = shifts.get(id);
      return isLive(current) ? markReleased(id) : current;
    });
  }

  /** Releases every live shift of an operation (the call was cancelled or moved). */
  async function releaseOperation(operationId) {
    const live = shifts.list((s) => s.operationId === operationId && isLive(s));
    const keys = live.map((s) => workerKey(s.workerId));
    return ctx.locks.withLocks(keys, async () =>
      live.filter((s) => isLive(shifts.get(s.id))).map((s) => markReleased(s.id)),
    );
  }

  return { releaseShift, releaseOperation };
}
