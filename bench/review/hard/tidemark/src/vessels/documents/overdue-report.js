// The documents desk's morning list: expected calls missing a required document, overdue first,
// then those falling due within the next `hours`. A document counts once its current version is in,
// whether it came on time or not.

import { HOUR } from "../../core/time.js";
import { byKeys, byNumber, byString } from "../../core/sort.js";
import { dueAt, minutesLeft } from "./deadlines.js";
import { kindLabel, requiredKinds } from "./document-kinds.js";

/** deps: calls (allCalls), register (getVessel), documents (currentOf). */
export function createOverdueReport(ctx, { calls, register, documents }) {
  function missing(hours = 24) {
    const now = ctx.clock.now();
    const horizon = now + hours * HOUR;
    const rows = [];
    for (const call of calls.allCalls((c) => c.state === "expected")) {
      const vessel = register.getVessel(call.vesselId);
      for (const kind of requiredKinds(vessel)) {
        if (documents.currentOf(call.id, kind)) continue;
        const due = dueAt(kind, call);
        if (due >= horizon) continue;
        rows.push({
          callId: call.id,
          vessel: vessel.name,
          agentId: call.agentId,
          kind,
          label: kindLabel(kind),
          dueAt: due,
          overdue: due <= now,
          minutesLeft: minutesLeft(kind, call, now),
        });
      }
    }
    return rows.toSorted(byKeys(byNumber("dueAt"), byString("callId"), byString("kind")));
  }

  return { missing };
}
