import assert from "node:assert/strict";
import { test } from "node:test";
import { MINUTE } from "../../src/core/time.js";
import { fakeTransport, makePlatform } from "./fixtures.js";

test("liveness always answers; readiness waits for start", async () => {
  const { platform } = makePlatform();
  const live = await platform.handle({ method: "GET", url: "/health" });
  assert.deepEqual(live, { status: 200, body: { status: "ok", port: "PTALV", at: "2026-03-02T00:00:00.000Z", startedAt: null } });
  const ready = await platform.handle({ method: "GET", url: "/ready" });
  assert.equal(ready.status, 503);
  assert.deepEqual(ready.body.checks.filter((c) => !c.ok).map((c) => c.name), ["started", "dispatcher"]);
  platform.start();
  assert.equal((await platform.handle({ method: "GET", url: "/ready" })).status, 200);
  platform.stop();
});

test("a dispatcher that stopped running makes the platform unready", async () => {
  const { ctx, platform } = makePlatform({ settings: { health: { staleAfterMinutes: 5 } } });
  platform.start();
  ctx.scheduler.tick(MINUTE);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(platform.health.readiness().ready, true);
  platform.dispatcher.stop();
  ctx.clock.advance(5 * MINUTE);
  const report = platform.health.readiness();
  assert.equal(report.ready, false);
  assert.deepEqual(report.checks.find((c) => c.name === "dispatcher"), { name: "dispatcher", ok: false, detail: "not started" });
  platform.stop();
});

test("ports with ping() are asked; strict readiness counts failed messages", async () => {
  const transport = fakeTransport();
  let billingUp = true;
  transport.ping = () => true;
  const billing = { listInvoices: () => [], ping: () => billingUp };
  const { platform } = makePlatform({ transport, billing, flags: { strictReadiness: true }, settings: { notifications: { maxAttempts: 1 } } });
  platform.start();
  assert.equal(platform.health.readiness().ready, true);
  billingUp = false;
  assert.deepEqual(platform.health.readiness().checks.find((c) => c.name === "port:billing"), { name: "port:billing", ok: false, detail: "not ready" });
  billingUp = true;
  platform.outbox.enqueue({ channel: "email", to: "ops@nortemar.pt", subject: "x", text: "y" });
  transport.fail(1);
  await platform.dispatcher.runOnce();
  assert.deepEqual(platform.health.readiness().checks.find((c) => c.name === "outbox"), { name: "outbox", ok: false, detail: "0 queued, 1 failed" });
  platform.stop();
});
