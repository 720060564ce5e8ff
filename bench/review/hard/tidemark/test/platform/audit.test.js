import assert from "node:assert/strict";
import { test } from "node:test";
import { HOUR, MINUTE } from "../../src/core/time.js";
import { auditEntry, describeEntry } from "../../src/platform/audit/audit-record.js";
import { as, makePlatform, T0 } from "./fixtures.js";

test("entries are validated and described", () => {
  const e = auditEntry("AUD-000001", { action: "user.roleChanged", entityType: "user", entityId: "USR-000004", actorId: "USR-000001" }, T0);
  assert.equal(describeEntry(e), "USR-000001 user.roleChanged user USR-000004");
  assert.equal(auditEntry("AUD-000002", { action: "call.berthed", entityType: "call", entityId: "CAL-000001" }, T0).actorId, "system");
  assert.throws(() => auditEntry("AUD-000003", { action: "Changed", entityType: "user", entityId: "x" }, T0), /action/);
  assert.throws(() => auditEntry("AUD-000003", { action: "a.b", entityType: "crane", entityId: "x" }, T0), /unknown entity type/);
});

test("the wiring records events once started, and no more after stop", () => {
  const { ctx, platform, users } = makePlatform();
  platform.start();
  platform.users.setRole(users.agentB.id, "clerk", users.master.id);
  ctx.events.publish("call.berthed", { callId: "CAL-000002", vesselId: "VSL-000002", berthId: "B1-3", at: T0 });
  platform.stop();
  platform.users.setRole(users.agentB.id, "planner", users.master.id);
  const entries = platform.audit.trail.entries();
  assert.deepEqual(entries.map(describeEntry), ["USR-000001 user.roleChanged user USR-000005", "system call.berthed call CAL-000002"]);
  assert.deepEqual(entries[0].detail, { userId: users.agentB.id, from: "agent", to: "clerk" });
  assert.throws(() => {
    entries[0].detail.to = "planner";
  }, TypeError);
});

test("snapshots follow the flag", () => {
  const { platform, users } = makePlatform({ flags: { auditSnapshots: false } });
  platform.start();
  platform.users.deactivate(users.agentA.id, users.master.id);
  platform.stop();
  assert.equal(platform.audit.trail.entries()[0].detail, null);
});

test("the listing filters by a half-open window and pages", () => {
  const { ctx, platform } = makePlatform();
  const { trail, query } = platform.audit;
  for (let i = 0; i < 5; i++) {
    trail.record({ action: "call.updated", entityType: "call", entityId: `CAL-00000${i + 1}`, actorId: i % 2 ? "USR-000002" : "USR-000001" });
    ctx.clock.advance(30 * MINUTE);
  }
  const window = { start: T0 + 30 * MINUTE, end: T0 + 2 * HOUR };
  assert.deepEqual(query.listEntries({ window }).items.map((e) => e.entityId), ["CAL-000002", "CAL-000003", "CAL-000004"]);
  const page = query.listEntries({ actorId: "USR-000001", limit: 2 });
  assert.deepEqual(page.items.map((e) => e.id), ["AUD-000001", "AUD-000003"]);
  assert.deepEqual(query.listEntries({ actorId: "USR-000001", limit: 2, cursor: page.nextCursor }).items.map((e) => e.id), ["AUD-000005"]);
  assert.deepEqual(query.actorCounts({ start: T0, end: T0 + 3 * HOUR }), [
    { actorId: "USR-000001", n: 3 },
    { actorId: "USR-000002", n: 2 },
  ]);
});

test("one record's history over the API", async () => {
  const { ctx, platform, users } = makePlatform();
  platform.start();
  platform.users.setRole(users.agentB.id, "clerk", users.master.id);
  ctx.clock.advance(HOUR);
  platform.users.setRole(users.agentB.id, "planner", users.master.id);
  const planner = await as(platform, users.planner);
  const res = await planner("GET", `/audit/user/${users.agentB.id}`);
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.items.map((e) => [e.at, e.detail.to]), [
    ["2026-03-02T00:00:00.000Z", "clerk"],
    ["2026-03-02T01:00:00.000Z", "planner"],
  ]);
  assert.equal((await planner("GET", "/audit/crane/X")).status, 400);
  const clerk = await as(platform, users.clerk);
  assert.equal((await clerk("GET", "/audit")).status, 403);
  platform.stop();
});

test("the last change names who made it", () => {
  const { platform, users } = makePlatform();
  platform.audit.trail.record({ action: "call.updated", entityType: "call", entityId: "CAL-000001", actorId: users.planner.id });
  assert.deepEqual(platform.audit.lastChange.lastChangeOf("call", "CAL-000001"), {
    at: T0,
    action: "call.updated",
    actorId: users.planner.id,
    actorName: "Ana Reis",
  });
  assert.equal(platform.audit.lastChange.lastChangeOf("call", "CAL-000002"), null);
});
