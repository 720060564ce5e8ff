// Arrival notices: when a vessel arrives, the operations contact of her agent gets a notice with
// the call and the vessel's particulars; a call without an agent goes to the harbour master's
// desk. start() subscribes to "call.arrived"; stop() unsubscribes.

import { idSequence } from "../../core/ids.js";
import { createStore } from "../../core/store.js";
import { arrivalNoticeText, arrivalSubject } from "./notice-format.js";

export const HARBOUR_MASTER_DESK = Object.freeze({ name: "Harbour master's desk", email: "desk@harbourmaster.alvarim.pt" });

/** deps: calls (getCall), register (findVessel), agents (findAgent), contacts (addressFor). */
export function createArrivalNotices(ctx, { calls, register, agents, contacts }) {
  const store = createStore("notice");
  const ids = idSequence("NTC");
  let off = null;

  function onArrived({ callId }) {
    const call = calls.getCall(callId);
    const vessel = register.findVessel(call.vesselId);
    if (!vessel) {
      ctx.log("warn", "arrival notice: vessel not in the register", { callId, vesselId: call.vesselId });
      return;
    }
    const agent = call.agentId ? agents.findAgent(call.agentId) : null;
    const address = agent ? contacts.addressFor(agent.id, "operations") : null;
    const notice = store.insert({
      id: ids.next(),
      callId,
      vesselId: vessel.id,
      to: address ?? HARBOUR_MASTER_DESK,
      subject: arrivalSubject(call, vessel),
      text: arrivalNoticeText({ call, vessel, agent, address }),
      arrivedAt: call.arrivedAt,
      sentAt: ctx.clock.now(),
    });
    ctx.events.publish("notice.sent", { noticeId: notice.id, callId, to: notice.to.email });
  }

  return {
    start() {
      if (!off) off = ctx.events.subscribe("call.arrived", onArrived);
    },
    stop() {
      off?.();
      off = null;
    },
    noticesFor: (callId) => store.list((n) => n.callId === callId),
    listNotices: () => store.list(),
  };
}
