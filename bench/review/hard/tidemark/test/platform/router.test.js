import assert from "node:assert/strict";
import { test } from "node:test";
import { createRouter } from "../../src/platform/http/router.js";
import { compilePattern } from "../../src/platform/http/route-pattern.js";
import { parseQuery, splitUrl, formatQuery } from "../../src/platform/http/query-string.js";
import { ValidationError, NotFoundError } from "../../src/core/errors.js";
import { UnauthorizedError } from "../../src/platform/errors.js";
import { collectingLog } from "../../src/core/log.js";

const user = { id: "USR-000001", role: "clerk", active: true };
const authenticate = (token) => {
  if (token !== "good") throw new UnauthorizedError();
  return user;
};

test("patterns capture decoded params and ignore a trailing slash", () => {
  const p = compilePattern("/berths/:id/plan");
  assert.deepEqual(p.match("/berths/B1-3/plan"), { id: "B1-3" });
  assert.deepEqual(p.match("/berths/B1%2D3/plan/"), { id: "B1-3" });
  assert.equal(p.match("/berths//plan"), null);
  assert.equal(p.match("/berths/B1-3"), null);
  assert.throws(() => compilePattern("/a/:x/:x"), /repeats/);
});

test("query strings", () => {
  assert.deepEqual(parseQuery("?a=1&b=two+words&a=3&flag"), { a: "3", b: "two words", flag: "" });
  assert.deepEqual(parseQuery("x=%E0%A4%A&y=1"), { y: "1" });
  assert.deepEqual(splitUrl("/calls?status=berthed"), { path: "/calls", query: { status: "berthed" } });
  assert.equal(formatQuery({ from: "2026-03-02T00:00:00Z", limit: 5, cursor: undefined }), "?from=2026-03-02T00%3A00%3A00Z&limit=5");
});

test("the router finds the handler, the user and the params", async () => {
  const router = createRouter({ authenticate, log: collectingLog() });
  router.add("GET", "/users/:id", ({ params, user: u, query }) => ({ status: 200, body: { id: params.id, by: u.id, q: query } }));
  router.add("GET", "/users/me", ({ user: u }) => ({ status: 200, body: { me: u.id } }));
  router.add("GET", "/ping", () => ({ status: 200, body: "pong" }), { public: true });

  assert.deepEqual(await router.handle({ method: "get", url: "/users/USR-000009?x=1", token: "good" }), {
    status: 200,
    body: { id: "USR-000009", by: "USR-000001", q: { x: "1" } },
  });
  assert.deepEqual((await router.handle({ method: "GET", url: "/users/me", token: "good" })).body, { me: "USR-000001" });
  assert.equal((await router.handle({ method: "GET", url: "/ping" })).body, "pong");
  assert.equal((await router.handle({ method: "GET", url: "/users/me" })).status, 401);
  assert.equal((await router.handle({ method: "GET", url: "/nowhere", token: "good" })).status, 404);
  const wrong = await router.handle({ method: "DELETE", url: "/ping" });
  assert.equal(wrong.status, 405);
  assert.deepEqual(wrong.body.allowed, ["GET"]);
});

test("errors map to statuses; a bug is a logged 500", async () => {
  const log = collectingLog();
  const router = createRouter({ authenticate, log });
  router.add("GET", "/invalid", () => {
    throw new ValidationError("limit", "must be a positive integer");
  }, { public: true });
  router.add("GET", "/missing", () => {
    throw new NotFoundError("call", "CAL-000404");
  }, { public: true });
  router.add("GET", "/bug", () => {
    throw new TypeError("x is undefined");
  }, { public: true });
  const invalid = await router.handle({ method: "GET", url: "/invalid" });
  assert.equal(invalid.status, 400);
  assert.equal(invalid.body.field, "limit");
  assert.equal((await router.handle({ method: "GET", url: "/missing" })).status, 404);
  const bug = await router.handle({ method: "GET", url: "/bug" });
  assert.deepEqual(bug, { status: 500, body: { error: "internal", message: "internal error" } });
  assert.equal(log.lines.at(-1).level, "error");
});

test("a route cannot be added twice", () => {
  const router = createRouter({ authenticate, log: collectingLog() });
  router.add("GET", "/a", () => null);
  assert.throws(() => router.add("GET", "/a", () => null), /twice/);
  assert.throws(() => router.add("FETCH", "/b", () => null), /unknown method/);
});

test("the token comes from the request or a bearer header", async () => {
  const { tokenOf } = await import("../../src/platform/http/auth.js");
  assert.equal(tokenOf({ token: "abc" }), "abc");
  assert.equal(tokenOf({ headers: { authorization: "Bearer abcdefghijklmnopqrstuvwx" } }), "abcdefghijklmnopqrstuvwx");
  assert.equal(tokenOf({ headers: { authorization: "Basic abcdefghijklmnopqrstuvwx" } }), null);
  assert.equal(tokenOf({ headers: { authorization: "Bearer short" } }), null);
  assert.equal(tokenOf({}), null);
});
