// Whether a worker may work a skill over a span. The answer is a list of reasons (empty when the
// worker may): the roster screen shows them all, the assign functions refuse on any.

import { isCertifiedFor } from "../certificates/validity.js";
import { onLeave } from "../leave/overlap.js";
import { hasSkill } from "../records/worker.js";
import { shiftsOf } from "../shifts/calendar.js";
import { checkLength } from "../shifts/limits.js";
import { checkRest } from "../shifts/rest.js";

export function createEligibility({ ctx, stores }) {
  /** `worker` is the record (callers have it already); returns { ok, reasons }. */
  function check(worker, skill, span) {
    const reasons = [];
    if (!worker.active) reasons.push("inactive");
    if (!hasSkill(worker, skill)) reasons.push("no_skill");
    const certs = stores.certificates.list((c) => c.workerId === worker.id);
    if (hasSkill(worker, skill) && !isCertifiedFor(certs, skill, span)) reasons.push("no_certificate");
    if (onLeave(stores.leave, worker.id, span)) reasons.push("on_leave");
    if (shiftsOf(stores.shifts, worker.id, span).length > 0) reasons.push("double_booked");
    reasons.push(...checkLength(ctx.config, span));
    reasons.push(...checkRest(ctx.config, stores.shifts, worker.id, span));
    return { ok: reasons.length === 0, reasons };
  }

  return { check };
}
