import assert from "node:assert/strict";
import { test } from "node:test";
import { MINUTE } from "../../src/core/time.js";
import { isValidAt, minutesLeft, newSession } from "../../src/platform/sessions/session-record.js";
import { as, makePlatform, PASSWORD, T0 } from "./fixtures.js";

test("a session is valid over [issuedAt, expiresAt)", () => {
  const s = newSession("SES-000001", "USR-000001", T0, 60);
  assert.equal(s.expiresAt, T0 + 60 * MINUTE);
  assert.equal(isValidAt(s, T0), true);
  assert.equal(isValidAt(s, s.expiresAt - 1), true);
  assert.equal(isValidAt(s, s.expiresAt), false);
  assert.equal(minutesLeft(s, T0 + 30 * MINUTE + 1), 29);
  assert.equal(minutesLeft(s, s.expiresAt), 0);
});

test("login issues a session the token finds until it expires", async () => {
  const { ctx, platform, users } = makePlatform({ settings: { sessions: { ttlMinutes: 30 } } });
  const session = await platform.login.login("ANA.REIS@alvarim-port.pt", PASSWORD);
  assert.equal(session.userId, users.planner.id);
  assert.equal(platform.sessions.findSession(session.token).id, session.id);
  ctx.clock.advance(30 * MINUTE - 1);
  assert.ok(platform.sessions.findSession(session.token));
  ctx.clock.advance(1);
  assert.equal(platform.sessions.findSession(session.token), null);
  assert.equal(platform.sessions.findSession("no-such-token"), null);
});

test("a wrong e-mail and a wrong password get the same answer", async () => {
  const { platform } = makePlatform();
  await assert.rejects(platform.login.login("nobody@alvarim-port.pt", PASSWORD), /wrong e-mail or password/);
  await assert.rejects(platform.login.login("ana.reis@alvarim-port.pt", "not the password"), /wrong e-mail or password/);
  const res = await platform.handle({ method: "POST", url: "/sessions", body: { email: "ana.reis@alvarim-port.pt", password: "nope nope nope" } });
  assert.equal(res.status, 401);
});

test("a fourth session ends the oldest", async () => {
  const { ctx, platform, users } = makePlatform();
  const ended = [];
  ctx.events.subscribe("session.ended", (p) => ended.push(p));
  const tokens = [];
  for (let i = 0; i < 4; i++) {
    tokens.push((await platform.login.login(users.clerk.email, PASSWORD)).token);
    ctx.clock.advance(MINUTE);
  }
  assert.equal(platform.sessions.openFor(users.clerk.id).length, 3);
  assert.equal(platform.sessions.findSession(tokens[0]), null);
  assert.ok(platform.sessions.findSession(tokens[3]));
  assert.deepEqual(ended.map((e) => e.reason), ["replaced"]);
});

test("logout over the API ends the session", async () => {
  const { platform, users } = makePlatform();
  const login = await platform.handle({ method: "POST", url: "/sessions", body: { email: users.agentB.email, password: PASSWORD } });
  assert.equal(login.status, 201);
  assert.equal(login.body.expiresAt, "2026-03-02T08:00:00.000Z");
  const me = await platform.handle({ method: "GET", url: "/sessions/current", token: login.body.token });
  assert.equal(me.body.user.id, users.agentB.id);
  assert.equal(me.body.minutesLeft, 480);
  assert.equal((await platform.handle({ method: "DELETE", url: "/sessions/current", token: login.body.token })).status, 204);
  assert.equal((await platform.handle({ method: "GET", url: "/sessions/current", token: login.body.token })).status, 401);
});

test("deactivating a user ends its sessions and refuses new ones", async () => {
  const { platform, users } = makePlatform();
  const clerk = await as(platform, users.clerk);
  const master = await as(platform, users.master);
  const res = await master("POST", `/users/${users.clerk.id}/deactivate`);
  assert.equal(res.status, 200);
  assert.equal(res.body.sessionsEnded, 1);
  assert.equal((await clerk("GET", "/calls")).status, 401);
  await assert.rejects(platform.login.login(users.clerk.email, PASSWORD), /wrong e-mail or password/);
  assert.equal((await master("POST", `/users/${users.master.id}/deactivate`)).status, 400);
});

test("the sweep removes what is over and runs on the scheduler", async () => {
  const { ctx, platform, users } = makePlatform({ settings: { sessions: { ttlMinutes: 20, sweepEveryMinutes: 15 } } });
  await platform.login.login(users.clerk.email, PASSWORD);
  await platform.login.login(users.planner.email, PASSWORD);
  platform.start();
  ctx.scheduler.tick(15 * MINUTE);
  assert.equal(platform.sessions.count(), 2);
  ctx.scheduler.tick(15 * MINUTE);
  assert.equal(platform.sessions.count(), 0);
  platform.stop();
});
