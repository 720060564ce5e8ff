// Puts one worker on a vessel operation for the operation's span, in one skill.

import { EVENTS, workerKey } from "../events.js";

export function createAssignWorker({ ctx, ports, workers, booking }) {
  return async function assignWorker({ workerId, operationId, skill }) {
    const operation = ports.getOperation(operationId);
    return ctx.locks.withLock(workerKey(workerId), async () => {
      const worker = workers.getWorker(workerId);
      const shift = booking.book({ worker, operation, skill });
      ctx.events.publish(EVENTS.shiftAssigned, { shiftId: shift.id, workerId, operationId });
      return shift;
    });
  };
}
