import assert from "node:assert/strict";
import { test } from "node:test";
import { HOUR } from "../../src/core/time.js";
import { makePlatform } from "./fixtures.js";

const TYPES = ["user.added", "user.roleChanged", "call.berthed", "call.departed", "pilot.ordered", "invoice.issued"];

test("start subscribes and schedules; stop releases all of it", () => {
  const { ctx, platform } = makePlatform();
  const before = TYPES.map((t) => ctx.events.count(t));
  assert.equal(ctx.scheduler.pending(), 0);
  assert.equal(platform.start(), true);
  assert.equal(platform.start(), false);
  assert.ok(ctx.scheduler.pending() >= 4);
  assert.ok(ctx.events.count("call.berthed") > 0);
  assert.equal(platform.stop(), true);
  assert.equal(platform.stop(), false);
  assert.equal(ctx.scheduler.pending(), 0);
  assert.deepEqual(TYPES.map((t) => ctx.events.count(t)), before);
});

test("a start after a stop works again", () => {
  const { ctx, platform } = makePlatform();
  platform.start();
  platform.stop();
  platform.start();
  ctx.events.publish("call.updated", { callId: "CAL-000001" });
  platform.stop();
  assert.equal(platform.audit.trail.count(), 1);
  assert.equal(ctx.scheduler.pending(), 0);
});

test("hourly jobs log and a failing job does not stop the others", () => {
  const { ctx, platform } = makePlatform();
  platform.outbox.enqueue({ channel: "email", to: "ops@nortemar.pt", subject: "x", text: "y" });
  platform.start();
  ctx.scheduler.tick(HOUR);
  const messages = ctx.log.lines.map((l) => l.message);
  assert.ok(messages.includes("outbox digest"));
  assert.ok(messages.includes("sessions open"));
  platform.stop();
});
