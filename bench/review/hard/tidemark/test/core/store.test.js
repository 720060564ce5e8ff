import assert from "node:assert/strict";
import { test } from "node:test";
import { createStore } from "../../src/core/store.js";
import { paginate } from "../../src/core/paging.js";
import { loadConfig } from "../../src/core/config.js";

test("records come out frozen and in id order", () => {
  const s = createStore("vessel");
  s.insert({ id: "V-000002", name: "b" });
  s.insert({ id: "V-000001", name: "a", tags: ["x"] });
  assert.deepEqual(s.list().map((r) => r.id), ["V-000001", "V-000002"]);
  assert.throws(() => {
    s.get("V-000001").tags.push("y");
  }, TypeError);
  assert.equal(s.find("V-404"), null);
  assert.throws(() => s.get("V-404"), /not found/);
});

test("update bumps the version and guards it", () => {
  const s = createStore("vessel");
  s.insert({ id: "V-000001", name: "a" });
  const row = s.update("V-000001", (r) => ({ ...r, name: "b" }), 1);
  assert.equal(row.version, 2);
  assert.throws(() => s.update("V-000001", (r) => r, 1), /changed/);
});

test("paging by cursor", () => {
  const config = loadConfig({ paging: { defaultLimit: 2 } });
  const items = ["A-1", "A-2", "A-3"].map((id) => ({ id }));
  const first = paginate(items, {}, config);
  assert.deepEqual(first, { items: [{ id: "A-1" }, { id: "A-2" }], nextCursor: "A-2" });
  assert.deepEqual(paginate(items, { cursor: first.nextCursor }, config), { items: [{ id: "A-3" }], nextCursor: null });
});
