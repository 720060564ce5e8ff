import assert from "node:assert/strict";
import { test } from "node:test";
import { testContext } from "../support/context.js";
import { createFlags } from "../../src/platform/flags/flags.js";
import { FLAG_NAMES } from "../../src/platform/flags/defaults.js";
import { platformSettings } from "../../src/platform/settings.js";
import { as, makePlatform } from "./fixtures.js";

test("flags start at their defaults, overrides on top", () => {
  const flags = createFlags(testContext(), { smsNotices: true });
  assert.equal(flags.isOn("smsNotices"), true);
  assert.equal(flags.isOn("agentCsvExport"), true);
  assert.deepEqual(flags.list().map((f) => f.name), FLAG_NAMES);
  assert.throws(() => flags.isOn("sms"), /unknown flag sms/);
  assert.throws(() => createFlags(testContext(), { strictReadiness: "yes" }), /true or false/);
});

test("a change is published once, after it holds", () => {
  const ctx = testContext();
  const flags = createFlags(ctx);
  const seen = [];
  ctx.events.subscribe("flag.changed", (p) => seen.push({ ...p, now: flags.isOn(p.name) }));
  flags.set("strictReadiness", true, { id: "USR-000001" });
  flags.set("strictReadiness", true, { id: "USR-000001" });
  assert.deepEqual(seen, [{ name: "strictReadiness", before: false, value: true, actorId: "USR-000001", at: ctx.clock.now(), now: true }]);
});

test("only the harbour master switches flags", async () => {
  const { platform, users } = makePlatform();
  const master = await as(platform, users.master);
  const planner = await as(platform, users.planner);
  assert.equal((await planner("PUT", "/flags/smsNotices", { value: true })).status, 403);
  assert.deepEqual((await master("PUT", "/flags/smsNotices", { value: true })).body, { name: "smsNotices", value: true });
  assert.equal((await master("PUT", "/flags/smsNotices", { value: "on" })).status, 400);
  assert.equal((await master("GET", "/flags")).body.flags.find((f) => f.name === "smsNotices").value, true);
});

test("platform settings refuse unknown keys and bad values", () => {
  assert.equal(platformSettings().sessions.ttlMinutes, 480);
  assert.equal(platformSettings({ sessions: { ttlMinutes: 60 } }).sessions.maxPerUser, 3);
  assert.throws(() => platformSettings({ sessions: { ttl: 60 } }), /settings.sessions.ttl: unknown setting/);
  assert.throws(() => platformSettings({ reports: { maxRows: -1 } }), /whole, non-negative/);
});
