// Questions the operations room asks about calls: who is expected in the next hours, who is in
// port now, which vessel is at a berth. Answers are copies sorted for display; the store's arrays
// are left alone.

import { HOUR, MINUTE, contains } from "../../core/time.js";
import { byKeys, byNumber, byString } from "../../core/sort.js";
import { isInPort } from "./call-states.js";

export function createCallQueries(ctx, { calls }) {
  /** Expected calls whose ETA falls in the next `hours` hours, soonest first. */
  function expectedArrivals(hours = 24) {
    const now = ctx.clock.now();
    const window = { start: now, end: now + hours * HOUR };
    return calls
      .allCalls((call) => call.state === "expected" && contains(window, call.eta))
      .toSorted(byKeys(byNumber("eta"), byString("id")));
  }

  /** Calls whose vessel is inside port limits, by arrival. */
  const inPort = () => calls.allCalls((call) => isInPort(call.state)).toSorted(byKeys(byNumber("arrivedAt"), byString("id")));

  /** The call berthed at `berthId`, or null when the berth is free. */
  function atBerth(berthId) {
    return calls.allCalls((call) => call.state === "berthed" && call.berthId === berthId)[0] ?? null;
  }

  /** Expected calls whose ETA has passed without an arrival: the VTS chases their agents. */
  function overdueArrivals(graceMinutes = 60) {
    const cutoff = ctx.clock.now() - graceMinutes * MINUTE;
    return calls.allCalls((call) => call.state === "expected" && call.eta < cutoff);
  }

  /** The open call of a vessel (expected, arrived or berthed), or null. */
  function openCallOf(vesselId) {
    return calls.callsForVessel(vesselId).find((call) => call.state !== "departed" && call.state !== "cancelled") ?? null;
  }

  return { expectedArrivals, inPort, atBerth, overdueArrivals, openCallOf };
}
