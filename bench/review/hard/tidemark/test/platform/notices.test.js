import assert from "node:assert/strict";
import { test } from "node:test";
import { render, templateTypes } from "../../src/platform/notifications/templates.js";
import { makePlatform, T0 } from "./fixtures.js";

const berthed = { callId: "CAL-000001", vesselId: "VSL-000001", berthId: "B1-1", at: T0 + 90 * 60_000 };

test("templates print UTC times and metres", () => {
  assert.deepEqual(render("call.berthed", { ...berthed, vesselName: "Maria Alvarim" }), {
    subject: "Maria Alvarim berthed at B1-1",
    text: "Maria Alvarim (CAL-000001) made fast at berth B1-1 at 2026-03-02 01:30Z.",
  });
  const pilot = render("pilot.ordered", { vesselName: "Tejo Star", draftCm: 840, boardingPoint: "PBP North", at: T0 }, "sms");
  assert.equal(pilot.subject, null);
  assert.equal(pilot.text, "Pilot for Tejo Star at PBP North: Pilot boards Tejo Star (draft 8.40 m) at PBP North, 2026-03-02 00:00Z.");
  assert.throws(() => render("call.cancelled", {}), /no template/);
  assert.ok(templateTypes().includes("invoice.issued"));
});

test("an event queues an e-mail to each active agent of the vessel's agency", () => {
  const { ctx, platform, users } = makePlatform();
  platform.users.addUser({ name: "Night desk", email: "night@atlantica-agency.pt", role: "agent", agentId: "AGT-000001" }, "correct horse battery");
  platform.users.deactivate(users.agentA.id);
  platform.start();
  ctx.events.publish("call.berthed", berthed);
  platform.stop();
  const queued = platform.outbox.messages();
  assert.deepEqual(queued.map((m) => [m.channel, m.to, m.vesselId, m.callId]), [["email", "night@atlantica-agency.pt", "VSL-000001", "CAL-000001"]]);
});

test("SMS goes out too when the flag is on and the agent has a phone", () => {
  const { ctx, platform } = makePlatform({ flags: { smsNotices: true } });
  platform.start();
  ctx.events.publish("call.departed", { callId: "CAL-000001", vesselId: "VSL-000001", berthId: "B1-1", at: T0 });
  platform.stop();
  assert.deepEqual(platform.outbox.messages().map((m) => [m.channel, m.to]), [
    ["email", "ops@atlantica-agency.pt"],
    ["sms", "+351913000002"],
  ]);
});

test("an unknown vessel is logged, not thrown", () => {
  const { ctx, platform } = makePlatform();
  platform.start();
  ctx.events.publish("call.berthed", { ...berthed, vesselId: "VSL-000404" });
  platform.stop();
  assert.equal(platform.outbox.messages().length, 0);
  assert.ok(ctx.log.lines.some((l) => l.message === "notice for an unknown vessel"));
});
