// Berth closures: dredging, fender repairs, a crane out of service. A closed berth takes no
// booking overlapping the closure, and a closure may not be laid over active bookings: the
// planners move those first.

import { ConflictError } from "../../core/errors.js";
import { interval, overlaps } from "../../core/time.js";
import { required } from "../../core/validate.js";
import { BERTH_EVENTS, berthKey } from "../events.js";
import { conflictsOnBerth, describeConflict } from "./overlap.js";

export function createClosures(ctx, parts) {
  const { stores } = parts;

  function closuresOverlapping(berthId, range) {
    return stores.closures.list((c) => c.berthId === berthId && overlaps(c, range));
  }

  async function addClosure(input) {
    required(input, ["berthId", "start", "end", "reason"]);
    const period = interval(input.start, input.end);
    const berth = stores.berths.get(input.berthId);
    return ctx.locks.withLock(berthKey(berth.id), async () => {
      const conflicts = conflictsOnBerth(parts.queries.activeOnBerth(berth.id), period);
      if (conflicts.length > 0) throw new ConflictError(`cannot close ${berth.id}: ${describeConflict(conflicts)}`);
      const row = stores.closures.insert({ id: stores.closureIds.next(), berthId: berth.id, ...period, reason: String(input.reason) });
      ctx.events.publish(BERTH_EVENTS.closureAdded, { closureId: row.id, berthId: berth.id });
      return row;
    });
  }

  return { addClosure, closuresOverlapping };
}
