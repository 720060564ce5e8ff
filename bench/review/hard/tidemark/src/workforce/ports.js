// What the workforce module needs from the rest of tidemark, passed in as `deps`:
//
//   deps.operations.findOperation(id) -> { id, callId, vesselName, quay, berthId, start, end } | null
//     A vessel operation (discharge, load, lashing) at a berth; start/end epoch ms, half-open.
//
// Nothing else is imported from another module.

import { NotFoundError } from "../core/errors.js";
import { interval } from "../core/time.js";

export function checkPorts(deps = {}) {
  const operations = deps.operations;
  if (!operations || typeof operations.findOperation !== "function") {
    throw new Error("workforce: deps.operations.findOperation is required");
  }
  return {
    findOperation: (id) => operations.findOperation(id) ?? null,
    getOperation(id) {
      const op = operations.findOperation(id);
      if (!op) throw new NotFoundError("operation", id);
      return op;
    },
  };
}

/** An operation's span, checked: a port answer with start/end the wrong way round is refused. */
export function operationSpan(operation) {
  return interval(operation.start, operation.end);
}
