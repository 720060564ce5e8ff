// Time in port per vessel over a window, for the dues review: the actual stays (arrival to
// departure, or to now for a vessel still in) clipped to the window, summed per vessel, and the
// chargeable days of each stay the way the tariff counts them.

import { chargeableDays } from "../../core/time.js";
import { byKeys, byNumber, byString, descending } from "../../core/sort.js";
import { actualStay, minutesWithin } from "../calls/stay.js";

/** deps: calls (allCalls), register (getVessel). */
export function createPortTimeReport(ctx, { calls, register }) {
  function timeInPort(window) {
    const now = ctx.clock.now();
    const perVessel = new Map();
    for (const call of calls.allCalls((c) => c.arrivedAt !== null)) {
      const minutes = minutesWithin(call, window, now);
      if (minutes === 0) continue;
      const stay = actualStay(call, now);
      const row = perVessel.get(call.vesselId) ?? { vesselId: call.vesselId, calls: 0, minutes: 0, chargeableDays: 0 };
      row.calls += 1;
      row.minutes += minutes;
      row.chargeableDays += stay ? chargeableDays(stay) : 0;
      perVessel.set(call.vesselId, row);
    }
    return [...perVessel.values()]
      .map((row) => ({ ...row, vessel: register.getVessel(row.vesselId).name }))
      .sort(byKeys(descending(byNumber("minutes")), byString("vesselId")));
  }

  /** The vessels that spent longer than `days` in port within the window: candidates for the long-stay surcharge. */
  const longStays = (window, days) => timeInPort(window).filter((row) => row.minutes > days * 24 * 60);

  return { timeInPort, longStays };
}
