import assert from "node:assert/strict";
import { test } from "node:test";
import { normaliseFilters } from "../../src/cargo/containers/filters.js";
import { aBox, aReefer, boxAt, cargoUnderTest } from "./fixtures.js";

test("filters are checked, unknown ones refused", () => {
  assert.deepEqual(normaliseFilters({ line: "msc", reefer: true }), { line: "MSC", reefer: true });
  assert.throws(() => normaliseFilters({ colour: "red" }), /not a container filter/);
  assert.throws(() => normaliseFilters({ status: "lost" }), /must be one of/);
  assert.throws(() => normaliseFilters({ reefer: "yes" }), /true or false/);
});

test("search pages by cursor over id order", () => {
  const { cargo } = cargoUnderTest({ config: { paging: { defaultLimit: 2 } } });
  const ids = [];
  for (let i = 0; i < 5; i++) ids.push(cargo.registerContainer(aBox({ line: i % 2 ? "CMA" : "MSC" })).id);
  const first = cargo.searchContainers({ line: "MSC" });
  assert.deepEqual(first.items.map((c) => c.id), [ids[0], ids[2]]);
  const second = cargo.searchContainers({ line: "MSC", cursor: first.nextCursor });
  assert.deepEqual(second.items.map((c) => c.id), [ids[4]]);
  assert.equal(second.nextCursor, null);
});

test("search by block, kind and number prefix", async () => {
  const { cargo } = cargoUnderTest();
  const a = await boxAt(cargo, "A1-01-01-1");
  const r = await boxAt(cargo, "R1-01-01-1", { setPointC: -18 });
  cargo.registerContainer(aReefer());
  assert.deepEqual(cargo.searchContainers({ blockId: "A1" }).items.map((c) => c.id), [a.id]);
  assert.deepEqual(cargo.searchContainers({ reefer: true, status: "in-yard" }).items.map((c) => c.id), [r.id]);
  assert.equal(cargo.searchContainers({ numberPrefix: a.number.slice(0, 8) }).items[0].id, a.id);
  assert.throws(() => cargo.searchContainers({ limit: 0 }), /positive integer/);
});

test("the number cache forgets a box when it moves or leaves", async () => {
  const { cargo, ctx } = cargoUnderTest();
  cargo.start();
  const box = await boxAt(cargo, "A1-01-01-1");
  assert.equal(cargo.findByNumber(box.number).slot.bay, 1);
  await cargo.moveContainer(box.id, { blockId: "A1", row: 1, bay: 2, tier: 1 });
  assert.equal(cargo.findByNumber(box.number).slot.bay, 2);
  await cargo.gateOut(box.id);
  assert.equal(cargo.findByNumber(box.number), null);
  cargo.stop();
  assert.equal(ctx.events.count("cargo.container.moved"), 0);
});
