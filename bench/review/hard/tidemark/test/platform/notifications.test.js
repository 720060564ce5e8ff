import assert from "node:assert/strict";
import { test } from "node:test";
import { HOUR, MINUTE } from "../../src/core/time.js";
import { nextAttemptAt, retryDelayMinutes, schedule } from "../../src/platform/notifications/backoff.js";
import { newMessage, recipientKey } from "../../src/platform/notifications/message.js";
import { createRateLimit } from "../../src/platform/notifications/rate-limit.js";
import { platformSettings } from "../../src/platform/settings.js";
import { fakeTransport, makePlatform, T0 } from "./fixtures.js";

const mail = (to = "ops@atlantica-agency.pt") => ({ channel: "email", to, subject: "Berthed", text: "Maria Alvarim made fast at B1-1." });

test("messages are validated per channel", () => {
  const m = newMessage("MSG-000001", mail("Ops@Atlantica-Agency.pt"), T0);
  assert.equal(m.status, "queued");
  assert.equal(m.nextAttemptAt, T0);
  assert.equal(recipientKey(m), "ops@atlantica-agency.pt");
  assert.throws(() => newMessage("MSG-000002", { ...mail(), subject: "" }, T0), /subject/);
  assert.throws(() => newMessage("MSG-000002", { channel: "sms", to: "912000001", text: "x" }, T0), /to/);
  assert.throws(() => newMessage("MSG-000002", { channel: "sms", to: "+351912000001", text: "x".repeat(321) }, T0), /at most 320/);
  assert.throws(() => newMessage("MSG-000002", { ...mail(), channel: "fax" }, T0), /channel/);
});

test("backoff doubles from the base up to the cap", () => {
  const s = platformSettings().notifications;
  assert.deepEqual(schedule(s), [2, 4, 8, 16]);
  assert.equal(retryDelayMinutes(9, s), 120);
  assert.equal(nextAttemptAt(T0, 1, s), T0 + 2 * MINUTE);
  assert.equal(nextAttemptAt(T0, 5, s), null);
  assert.throws(() => retryDelayMinutes(0, s), /positive integer/);
});

test("the rate limit counts sends over a half-open hour", () => {
  const limit = createRateLimit({ settings: platformSettings({ notifications: { perRecipientPerHour: 2 } }) });
  limit.noteSent("a", T0);
  assert.equal(limit.allowedAt("a", T0), T0);
  limit.noteSent("a", T0 + 10 * MINUTE);
  assert.equal(limit.allowedAt("a", T0 + 20 * MINUTE), T0 + HOUR);
  assert.equal(limit.allowedAt("a", T0 + HOUR), T0 + HOUR);
  assert.equal(limit.sentInLastHour("a", T0 + HOUR), 1);
  assert.equal(limit.allowedAt("b", T0), T0);
  const off = createRateLimit({ settings: platformSettings({ notifications: { perRecipientPerHour: 0 } }) });
  for (let i = 0; i < 10; i++) off.noteSent("a", T0);
  assert.equal(off.allowedAt("a", T0), T0);
});

test("the dispatcher sends what is due and marks it", async () => {
  const transport = fakeTransport();
  const { platform } = makePlatform({ transport });
  const m = platform.outbox.enqueue(mail());
  assert.deepEqual(await platform.dispatcher.runOnce(), { sent: 1, failed: 0, postponed: 0 });
  assert.equal(platform.outbox.getMessage(m.id).status, "sent");
  assert.equal(platform.outbox.getMessage(m.id).attempts, 1);
  assert.equal(transport.sent[0].subject, "Berthed");
  assert.deepEqual(await platform.dispatcher.runOnce(), { sent: 0, failed: 0, postponed: 0 });
});

test("a failure is retried on the backoff schedule, then given up", async () => {
  const transport = fakeTransport();
  const { ctx, platform } = makePlatform({ transport, settings: { notifications: { maxAttempts: 3 } } });
  const failed = [];
  ctx.events.subscribe("notification.failed", (p) => failed.push({ ...p, status: platform.outbox.getMessage(p.messageId).status }));
  const m = platform.outbox.enqueue(mail());
  transport.fail(3);
  await platform.dispatcher.runOnce();
  assert.equal(platform.outbox.getMessage(m.id).nextAttemptAt, T0 + 2 * MINUTE);
  ctx.clock.advance(2 * MINUTE - 1);
  assert.deepEqual(await platform.dispatcher.runOnce(), { sent: 0, failed: 0, postponed: 0 });
  ctx.clock.advance(1);
  await platform.dispatcher.runOnce();
  ctx.clock.advance(4 * MINUTE);
  await platform.dispatcher.runOnce();
  const row = platform.outbox.getMessage(m.id);
  assert.equal(row.status, "failed");
  assert.equal(row.attempts, 3);
  assert.equal(row.lastError, "gateway timeout");
  assert.deepEqual(failed, [{ messageId: m.id, to: m.to, attempts: 3, status: "failed" }]);
});

test("over the limit a message is postponed, not spent", async () => {
  const transport = fakeTransport();
  const { ctx, platform } = makePlatform({ transport, settings: { notifications: { perRecipientPerHour: 1 } } });
  platform.outbox.enqueue(mail());
  const second = platform.outbox.enqueue(mail("OPS@atlantica-agency.pt"));
  assert.deepEqual(await platform.dispatcher.runOnce(), { sent: 1, failed: 0, postponed: 1 });
  assert.equal(platform.outbox.getMessage(second.id).attempts, 0);
  assert.equal(platform.outbox.getMessage(second.id).nextAttemptAt, T0 + HOUR);
  ctx.clock.advance(HOUR);
  assert.deepEqual(await platform.dispatcher.runOnce(), { sent: 1, failed: 0, postponed: 0 });
});

test("the dispatcher polls on the scheduler between start and stop", async () => {
  const transport = fakeTransport();
  const { ctx, platform } = makePlatform({ transport });
  platform.outbox.enqueue(mail());
  platform.start();
  ctx.scheduler.tick(MINUTE);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(transport.sent.length, 1);
  assert.equal(platform.dispatcher.lastRunAt(), T0 + MINUTE);
  platform.stop();
  platform.outbox.enqueue(mail());
  ctx.scheduler.tick(10 * MINUTE);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(transport.sent.length, 1);
});

test("the outbox lists by status and by vessel", () => {
  const { platform } = makePlatform();
  platform.outbox.enqueue({ ...mail(), vesselId: "VSL-000001" });
  platform.outbox.enqueue({ ...mail(), vesselId: "VSL-000002" });
  assert.deepEqual(platform.outbox.listForVessel("VSL-000002").map((m) => m.id), ["MSG-000002"]);
  assert.equal(platform.outbox.listMessages({ status: "queued", limit: 1 }).nextCursor, "MSG-000001");
  assert.equal(platform.outbox.countByStatus("sent"), 0);
});
