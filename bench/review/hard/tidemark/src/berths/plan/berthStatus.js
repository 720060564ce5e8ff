// What a berth is doing at a given moment, for the harbour master's quay board: a vessel
// alongside (and until when), closed (and why), or free (and until the next arrival). A stay
// contains its start and not its end, so at the minute one vessel leaves and the next arrives the
// berth shows the arriving one.

import { contains } from "../../core/time.js";
import { byNumber } from "../../core/sort.js";
import { stayOf } from "../records/booking.js";

export const BERTH_STATES = Object.freeze(["alongside", "closed", "free"]);

export function createBerthStatus(ctx, parts) {
  const { stores, queries } = parts;

  function closureAt(berthId, t) {
    return stores.closures.list((c) => c.berthId === berthId && contains(c, t))[0] ?? null;
  }

  function nextArrival(berthId, t) {
    return queries.activeOnBerth(berthId).filter((b) => b.start > t).toSorted(byNumber("start"))[0] ?? null;
  }

  /** { berthId, state, bookingId, vesselId, until, reason } at time t (now when omitted). */
  function statusAt(berthId, t = ctx.clock.now()) {
    stores.berths.get(berthId);
    const alongside = queries.activeOnBerth(berthId).find((b) => contains(stayOf(b), t));
    if (alongside) {
      return { berthId, state: "alongside", bookingId: alongside.id, vesselId: alongside.vesselId, until: alongside.end, reason: null };
    }
    const closure = closureAt(berthId, t);
    if (closure) return { berthId, state: "closed", bookingId: null, vesselId: null, until: closure.end, reason: closure.reason };
    const next = nextArrival(berthId, t);
    return { berthId, state: "free", bookingId: next?.id ?? null, vesselId: next?.vesselId ?? null, until: next?.start ?? null, reason: null };
  }

  /** Every berth of a quay from north to south. */
  function quayStatus(quayId, t = ctx.clock.now()) {
    stores.quays.get(quayId);
    return stores.berths
      .list((b) => b.quayId === quayId)
      .toSorted(byNumber("fromCm"))
      .map((b) => statusAt(b.id, t));
  }

  /** How many berths of the port are in each state at t. */
  function portSummary(t = ctx.clock.now()) {
    const counts = Object.fromEntries(BERTH_STATES.map((s) => [s, 0]));
    for (const b of stores.berths.list()) counts[statusAt(b.id, t).state] += 1;
    return counts;
  }

  return { statusAt, quayStatus, portSummary };
}
