import assert from "node:assert/strict";
import { test } from "node:test";
import { aBox, boxAt, cargoUnderTest } from "./fixtures.js";

test("a VGM is recorded and announced", async () => {
  const { cargo, ctx } = cargoUnderTest();
  const seen = [];
  ctx.events.subscribe("cargo.container.vgm-declared", (e) => seen.push(e));
  const box = cargo.registerContainer(aBox({ vgmKg: undefined }));
  const updated = cargo.declareVgm(box.id, 14_500);
  assert.equal(updated.vgmKg, 14_500);
  assert.equal(updated.vgmDeclaredBy, "shipper");
  assert.deepEqual(seen, [{ containerId: box.id, vgmKg: 14_500, restowNeeded: false }]);
  assert.throws(() => cargo.declareVgm(box.id, 1_000), /less than the tare/);
});

test("a VGM heavier than the box below marks a restow", async () => {
  const { cargo } = cargoUnderTest();
  await boxAt(cargo, "A1-01-01-1", { grossKg: 15_000, vgmKg: 15_000 });
  const top = await boxAt(cargo, "A1-01-01-2", { grossKg: 12_000, vgmKg: 12_000 });
  assert.equal(cargo.declareVgm(top.id, 16_000).restowNeeded, true);
  assert.equal(cargo.declareVgm(top.id, 14_000).restowNeeded, false);
});

test("a VGM lighter than the box above marks a restow", async () => {
  const { cargo } = cargoUnderTest();
  const bottom = await boxAt(cargo, "A1-01-01-1", { grossKg: 15_000, vgmKg: 15_000 });
  await boxAt(cargo, "A1-01-01-2", { grossKg: 12_000, vgmKg: 12_000 });
  assert.equal(cargo.declareVgm(bottom.id, 11_000).restowNeeded, true);
});

test("a box that has left takes no VGM", async () => {
  const { cargo } = cargoUnderTest();
  const box = await boxAt(cargo, "A1-01-01-1");
  await cargo.gateOut(box.id);
  assert.throws(() => cargo.declareVgm(box.id, 14_000), /has left/);
});
