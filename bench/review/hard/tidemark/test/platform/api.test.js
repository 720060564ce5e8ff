import assert from "node:assert/strict";
import { test } from "node:test";
import { as, makePlatform } from "./fixtures.js";

test("calls are scoped to the agent's vessels and filtered by window", async () => {
  const { platform, users } = makePlatform();
  const agent = await as(platform, users.agentA);
  const all = await agent("GET", "/calls");
  assert.deepEqual(all.body.items.map((c) => c.id), ["CAL-000001", "CAL-000003", "CAL-000004"]);
  assert.equal(all.body.items[0].eta, "2026-03-01T00:00:00.000Z");
  const clerk = await as(platform, users.clerk);
  const window = await clerk("GET", "/calls?from=2026-03-02T06:00:00Z&to=2026-03-03T00:00:00Z");
  assert.deepEqual(window.body.items.map((c) => c.id), ["CAL-000002"]);
  const berthed = await clerk("GET", "/calls?status=berthed");
  assert.deepEqual(berthed.body.items.map((c) => c.id), ["CAL-000001"]);
  assert.equal((await clerk("GET", "/calls?status=sunk")).status, 400);
});

test("an agent asking for another agency's call or vessel gets a 404", async () => {
  const { platform, users } = makePlatform();
  const agent = await as(platform, users.agentB);
  assert.equal((await agent("GET", "/calls/CAL-000002")).status, 200);
  assert.equal((await agent("GET", "/calls/CAL-000001")).status, 404);
  assert.equal((await agent("GET", "/vessels/VSL-000001")).status, 404);
  const own = await agent("GET", "/vessels/VSL-000002");
  assert.equal(own.body.lengthCm, 22_450);
  assert.deepEqual(own.body.calls.map((c) => c.id), ["CAL-000002"]);
});

test("a vessel's calls come latest first", async () => {
  const { platform, users } = makePlatform();
  const planner = await as(platform, users.planner);
  const res = await planner("GET", "/vessels/VSL-000001");
  assert.deepEqual(res.body.calls.map((c) => c.id), ["CAL-000001", "CAL-000004"]);
  assert.equal((await planner("GET", "/vessels/VSL-000404")).status, 404);
});

test("a call shows its last change", async () => {
  const { platform, users } = makePlatform();
  platform.audit.trail.record({ action: "call.berthed", entityType: "call", entityId: "CAL-000001" });
  const clerk = await as(platform, users.clerk);
  const res = await clerk("GET", "/calls/CAL-000001");
  assert.deepEqual(res.body.lastChange, { at: "2026-03-02T00:00:00.000Z", action: "call.berthed", actorId: "system", actorName: "system" });
});

test("notifications are scoped like the calls", async () => {
  const { platform, users } = makePlatform();
  const mail = { channel: "email", to: "ops@atlantica-agency.pt", subject: "x", text: "y" };
  platform.outbox.enqueue({ ...mail, vesselId: "VSL-000001" });
  platform.outbox.enqueue({ ...mail, vesselId: "VSL-000002", to: "ops@nortemar.pt" });
  platform.outbox.enqueue({ ...mail, to: "rui.costa@alvarim-port.pt" });
  const agent = await as(platform, users.agentA);
  assert.deepEqual((await agent("GET", "/notifications")).body.items.map((m) => m.id), ["MSG-000001"]);
  assert.equal((await agent("GET", "/notifications/MSG-000002")).status, 404);
  assert.equal((await agent("GET", "/notifications/MSG-000001")).body.createdAt, "2026-03-02T00:00:00.000Z");
  const master = await as(platform, users.master);
  const page = await master("GET", "/notifications?limit=2&status=queued");
  assert.deepEqual(page.body, { items: page.body.items, nextCursor: "MSG-000002" });
  const planner = await as(platform, users.planner);
  assert.equal((await planner("GET", "/notifications")).status, 403);
});

test("users are managed by the harbour master only", async () => {
  const { platform, users } = makePlatform();
  const clerk = await as(platform, users.clerk);
  assert.equal((await clerk("POST", "/users", { name: "X", email: "x@alvarim-port.pt", role: "clerk", password: "long enough pw" })).status, 403);
  const master = await as(platform, users.master);
  const added = await master("POST", "/users", { name: "Rita Matos", email: "rita.matos@alvarim-port.pt", role: "planner", password: "long enough pw" });
  assert.equal(added.status, 201);
  assert.equal(added.body.createdAt, "2026-03-02T00:00:00.000Z");
  assert.equal((await master("POST", "/users", { name: "Y", email: "y@alvarim-port.pt", role: "planner" })).status, 400);
  const role = await master("PUT", `/users/${added.body.id}/role`, { role: "clerk" });
  assert.equal(role.body.role, "clerk");
  assert.equal((await master("PUT", `/users/USR-000404/role`, { role: "clerk" })).status, 404);
});

test("a vessel's calls are paged and a bearer header works", async () => {
  const { platform, users } = makePlatform();
  const session = await platform.login.login(users.agentA.email, "correct horse battery");
  const get = (url) => platform.handle({ method: "GET", url, headers: { authorization: `Bearer ${session.token}` } });
  const page = await get("/vessels/VSL-000001/calls?limit=1");
  assert.deepEqual(page.body.items.map((c) => c.id), ["CAL-000001"]);
  assert.equal(page.body.nextCursor, "CAL-000001");
  assert.deepEqual((await get("/vessels/VSL-000001/calls?cursor=CAL-000001")).body.items.map((c) => c.id), ["CAL-000004"]);
  assert.equal((await get("/vessels/VSL-000002/calls")).status, 404);
  assert.equal((await get("/vessels/VSL-000001/calls?status=departed")).body.items.length, 1);
});
