// Charges a port call when the vessel departs: port dues on its tonnage, berthage on its length
// and stay, the container moves worked and the reefer-days of its boxes.

import { PORT_EVENTS } from "../events.js";
import { usageForCall } from "./usage.js";

/** The tariffs a call is charged, in the order they appear on the invoice. */
export const CALL_TARIFFS = Object.freeze(["T-DUES", "T-BERTH", "T-MOVE", "T-REEFER"]);

export function createCallChargeFeed(ctx, { deps, charges }) {
  let off = null;

  /** Raises a departed call's charges; returns those raised (or already raised). */
  function chargeCall(callId) {
    const call = deps.calls.findCall(callId);
    if (!call) {
      ctx.log("warn", "billing: departed call not found", { callId });
      return [];
    }
    if (call.departedAt === null || call.departedAt === undefined) {
      ctx.log("warn", "billing: call has not departed", { callId });
      return [];
    }
    const usage = usageForCall(call, deps);
    const raised = [];
    for (const tariffCode of CALL_TARIFFS) {
      const charge = charges.raise({
        accountId: call.accountId,
        tariffCode,
        usage,
        at: call.berthedAt,
        source: { kind: "call", ref: call.id },
      });
      if (charge) raised.push(charge);
    }
    return raised;
  }

  return {
    chargeCall,
    start() {
      if (off) return;
      off = ctx.events.subscribe(PORT_EVENTS.callDeparted, (event) => chargeCall(event.callId));
    },
    stop() {
      off?.();
      off = null;
    },
  };
}
