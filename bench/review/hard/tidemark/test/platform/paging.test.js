import assert from "node:assert/strict";
import { test } from "node:test";
import { parsePaging } from "../../src/platform/http/paging-query.js";
import { loadConfig } from "../../src/core/config.js";
import { as, makePlatform } from "./fixtures.js";

test("the cursor must be a record id", () => {
  const config = loadConfig();
  assert.deepEqual(parsePaging({}, config), { cursor: undefined, limit: undefined });
  assert.equal(parsePaging({ cursor: "USR-000002" }, config).cursor, "USR-000002");
  assert.throws(() => parsePaging({ cursor: "'; drop" }, config), /cursor: is not a record id/);
});

test("users are paged by cursor in id order", async () => {
  const { platform, users } = makePlatform();
  const get = await as(platform, users.master);
  const first = await get("GET", "/users?limit=2");
  assert.equal(first.status, 200);
  assert.deepEqual(first.body.items.map((u) => u.id), ["USR-000001", "USR-000002"]);
  assert.equal(first.body.nextCursor, "USR-000002");
  const second = await get("GET", `/users?limit=2&cursor=${first.body.nextCursor}`);
  assert.deepEqual(second.body.items.map((u) => u.id), ["USR-000003", "USR-000004"]);
  const last = await get("GET", "/users?limit=2&cursor=USR-000004");
  assert.deepEqual(last.body, { items: [last.body.items[0]], nextCursor: null });
  assert.equal(first.body.items[0].passwordHash, undefined);
});

test("a bad limit is a 400 naming the field", async () => {
  const { platform, users } = makePlatform();
  const get = await as(platform, users.master);
  for (const limit of ["0", "-5", "2.5", "ten"]) {
    const res = await get("GET", `/users?limit=${limit}`);
    assert.equal(res.status, 400, `limit=${limit}`);
    assert.equal(res.body.field, "limit");
  }
});

test("a limit above paging.maxLimit is cut to it", async () => {
  const { platform, users } = makePlatform({ config: { paging: { maxLimit: 3 } } });
  const get = await as(platform, users.master);
  const res = await get("GET", "/users?limit=500");
  assert.equal(res.body.items.length, 3);
  assert.equal(res.body.nextCursor, "USR-000003");
  const all = await get("GET", "/users?role=agent");
  assert.deepEqual(all.body.items.map((u) => u.role), ["agent", "agent"]);
});

test("the next page's link keeps the filters", async () => {
  const { nextLink } = await import("../../src/platform/http/paging-query.js");
  assert.equal(nextLink("/calls", { status: "berthed", limit: "2", cursor: "CAL-000001" }, "CAL-000003"), "/calls?status=berthed&limit=2&cursor=CAL-000003");
  assert.equal(nextLink("/calls", {}, null), null);
});
