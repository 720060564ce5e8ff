// Storage charges for the days a box stood in the yard past its free time, handed to billing
// through its port when the box leaves: deps.billing.chargeStorage({ containerId, number, line, teu,
// reefer, days }), where days are chargeable days (the free ones already taken off).

import { DWELL_CHARGED } from "../events.js";
import { isReefer } from "../records/container.js";
import { teuOf } from "../records/sizeType.js";
import { chargeableDwellDays, dwellDays } from "./dwell.js";

export function createDwellCharges(ctx, { billing }) {
  function chargeDwell(container) {
    const days = chargeableDwellDays(dwellDays(container, ctx.clock.now()), ctx.config.cargo.dwellFreeDays);
    if (days === 0) return null;
    const charge = {
      containerId: container.id,
      number: container.number,
      line: container.line,
      teu: teuOf(container.sizeType),
      reefer: isReefer(container),
      days,
    };
    billing.chargeStorage(charge);
    ctx.events.publish(DWELL_CHARGED, { containerId: container.id, days });
    return charge;
  }

  return { chargeDwell };
}
