// Leave requests: a worker asks, the operations office approves or rejects. Approving takes the
// worker's lock so a shift cannot be assigned over the leave while it is being granted; approving
// leave over a shift already assigned is refused (release the shift first).

import { ConflictError } from "../../core/errors.js";
import { EVENTS, workerKey } from "../events.js";
import { newLeave } from "../records/leave.js";
import { shiftsOf } from "../shifts/calendar.js";
import { approvedLeaveOf } from "./overlap.js";
import { overlaps } from "../../core/time.js";

export function createLeaveRegistry({ ctx, stores, workers }) {
  const { leave, ids } = stores;

  function requestLeave(input) {
    workers.getWorker(input?.workerId);
    const request = leave.insert(newLeave(input, ids.leave.next(), ctx.clock.now()));
    ctx.events.publish(EVENTS.leaveRequested, { leaveId: request.id, workerId: request.workerId });
    return request;
  }

  async function approveLeave(id) {
    const pending = leave.get(id);
    return ctx.locks.withLock(workerKey(pending.workerId), async () => {
      const current = leave.get(id);
      if (current.status !== "requested") throw new ConflictError(`leave ${id} is ${current.status}`);
      const clash = shiftsOf(stores.shifts, current.workerId, current)[0];
      if (clash) throw new ConflictError(`${current.workerId} is rostered in ${clash.id} during the leave`);
      if (approvedLeaveOf(leave, current.workerId).some((l) => overlaps(l, current))) {
        throw new ConflictError(`${current.workerId} already has leave in those days`);
      }
      const approved = leave.update(id, (l) => ({ ...l, status: "approved", decidedAt: ctx.clock.now() }), current.version);
      ctx.events.publish(EVENTS.leaveApproved, { leaveId: id, workerId: approved.workerId });
      return approved;
    });
  }

  function rejectLeave(id, note) {
    const current = leave.get(id);
    if (current.status !== "requested") throw new ConflictError(`leave ${id} is ${current.status}`);
    const rejected = leave.update(id, (l) => ({ ...l, status: "rejected", decidedAt: ctx.clock.now(), note: note ?? l.note }));
    ctx.events.publish(EVENTS.leaveRejected, { leaveId: id, workerId: rejected.workerId });
    return rejected;
  }

  const leaveOf = (workerId) => leave.list((l) => l.workerId === workerId);

  return { requestLeave, approveLeave, rejectLeave, leaveOf, findLeave: (id) => leave.find(id) };
}
