// Writes one shift after checking the worker may work it. The caller holds the worker's lock
// (worker:<id>) and publishes once everything it books is written.

import { ConflictError } from "../../core/errors.js";
import { operationSpan } from "../ports.js";
import { newShift } from "../records/shift.js";

export function createBooking({ ctx, stores, eligibility }) {
  function refuse(worker, verdict) {
    const error = new ConflictError(`${worker.id} cannot be rostered: ${verdict.reasons.join(", ")}`);
    error.reasons = verdict.reasons;
    return error;
  }

  /** Checks and inserts; throws ConflictError (with .reasons) when the worker may not work it. */
  function book({ worker, operation, skill, gangId = null }) {
    const span = operationSpan(operation);
    const verdict = eligibility.check(worker, skill, span);
    if (!verdict.ok) throw refuse(worker, verdict);
    const input = { workerId: worker.id, operationId: operation.id, skill, gangId, ...span };
    return stores.shifts.insert(newShift(input, stores.ids.shifts.next(), ctx.clock.now()));
  }

  return { book, refuse };
}
