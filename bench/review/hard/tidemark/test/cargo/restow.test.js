import assert from "node:assert/strict";
import { test } from "node:test";
import { boxAt, cargoUnderTest } from "./fixtures.js";

test("the restow count is what stands over a box", async () => {
  const { cargo } = cargoUnderTest();
  const bottom = await boxAt(cargo, "A1-01-01-1", { grossKg: 20_000, vgmKg: 20_000 });
  await boxAt(cargo, "A1-01-01-2", { grossKg: 15_000, vgmKg: 15_000 });
  const top = await boxAt(cargo, "A1-01-01-3", { grossKg: 10_000, vgmKg: 10_000 });
  assert.equal(cargo.restowCount(bottom.id), 2);
  assert.equal(cargo.restowCount(top.id), 0);
});

test("uncovering a box with nothing on it moves nothing", async () => {
  const { cargo } = cargoUnderTest();
  const box = await boxAt(cargo, "A1-01-01-1");
  assert.deepEqual(await cargo.uncover(box.id), []);
});

test("a box under one other is uncovered in one move", async () => {
  const { cargo } = cargoUnderTest();
  const bottom = await boxAt(cargo, "A1-01-01-1", { grossKg: 20_000, vgmKg: 20_000 });
  const top = await boxAt(cargo, "A1-01-01-2", { grossKg: 10_000, vgmKg: 10_000 });
  const made = await cargo.uncover(bottom.id);
  assert.equal(made.length, 1);
  assert.equal(made[0].containerId, top.id);
  assert.notEqual(cargo.getContainer(top.id).slot.bay === 1 && cargo.getContainer(top.id).slot.row === 1, true);
  assert.equal(cargo.restowCount(bottom.id), 0);
});
