// Puts a whole gang on a vessel operation: the foreman as "foreman", the crew in the requested
// skill. All or nothing: every member is checked before any shift is written, under all the
// members' locks taken in one withLocks call.

import { ConflictError } from "../../core/errors.js";
import { EVENTS, workerKey } from "../events.js";

export function createAssignGang({ ctx, ports, workers, gangs, eligibility, booking }) {
  return async function assignGang({ gangId, operationId, skill }) {
    const gang = gangs.getGang(gangId);
    if (!gang.active) throw new ConflictError(`gang ${gangId} was disbanded`);
    const operation = ports.getOperation(operationId);
    const span = { start: operation.start, end: operation.end };

    return ctx.locks.withLocks(gang.memberIds.map(workerKey), async () => {
      const plan = gang.memberIds.map((id) => ({
        worker: workers.getWorker(id),
        skill: id === gang.foremanId ? "foreman" : skill,
      }));
      const refused = plan
        .map((p) => ({ ...p, verdict: eligibility.check(p.worker, p.skill, span) }))
        .filter((p) => !p.verdict.ok);
      if (refused.length) {
        const who = refused.map((p) => `${p.worker.id} (${p.verdict.reasons.join(", ")})`).join("; ");
        throw new ConflictError(`gang ${gangId} cannot be rostered: ${who}`);
      }
      const shifts = plan.map((p) => booking.book({ worker: p.worker, operation, skill: p.skill, gangId }));
      for (const shift of shifts) {
        ctx.events.publish(EVENTS.shiftAssigned, { shiftId: shift.id, workerId: shift.workerId, operationId });
      }
      ctx.events.publish(EVENTS.gangAssigned, { gangId, operationId, shiftIds: shifts.map((s) => s.id) });
      return shifts;
    });
  };
}
