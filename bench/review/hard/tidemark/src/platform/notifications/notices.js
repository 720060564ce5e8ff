// Turns port events into notices for the agents of the vessel concerned: an e-mail to each active
// agent user of the vessel's agency, and an SMS to those with a phone when the smsNotices flag is
// on. The vessel comes through the vessels port (findVessel → { id, name, agentId } | null).

import { render, templateTypes } from "./templates.js";

export function createNotices(ctx, { outbox, users, vessels, flags }) {
  const offs = [];

  function recipientsFor(vessel) {
    if (!vessel?.agentId) return [];
    return users.listUsers((u) => u.active && u.role === "agent" && u.agentId === vessel.agentId);
  }

  function onEvent(type, payload) {
    const vessel = vessels.findVessel(payload.vesselId);
    if (!vessel) {
      ctx.log("warn", "notice for an unknown vessel", { type, vesselId: payload.vesselId });
      return [];
    }
    const data = { ...payload, vesselName: vessel.name };
    const queued = [];
    for (const user of recipientsFor(vessel)) {
      const mail = render(type, data, "email");
      queued.push(outbox.enqueue({ channel: "email", to: user.email, ...mail, vesselId: vessel.id, callId: payload.callId }));
      if (user.phone && flags.isOn("smsNotices")) {
        const sms = render(type, data, "sms");
        queued.push(outbox.enqueue({ channel: "sms", to: user.phone, text: sms.text, vesselId: vessel.id, callId: payload.callId }));
      }
    }
    return queued;
  }

  return {
    onEvent,
    start() {
      if (offs.length) return;
      for (const type of templateTypes()) offs.push(ctx.events.subscribe(type, (p) => onEvent(type, p)));
    },
    stop() {
      while (offs.length) offs.pop()();
    },
  };
}
