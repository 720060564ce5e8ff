import assert from "node:assert/strict";
import { test } from "node:test";
import { BLOCK_R1, BLOCK_R2, boxAt, cargoUnderTest, slot } from "./fixtures.js";

test("a box moves within its block and the move is logged", async () => {
  const { cargo, ctx } = cargoUnderTest();
  const seen = [];
  ctx.events.subscribe("cargo.container.moved", (e) => seen.push(e));
  const box = await boxAt(cargo, "A1-01-01-1");
  const moved = await cargo.moveContainer(box.id, slot("A1-02-01-1"));
  assert.deepEqual(moved.slot, slot("A1-02-01-1"));
  assert.equal(seen.length, 1);
  assert.equal(seen[0].reason, "housekeeping");
});

test("only the top box can be lifted", async () => {
  const { cargo } = cargoUnderTest();
  const bottom = await boxAt(cargo, "A1-01-01-1");
  await boxAt(cargo, "A1-01-01-2", { grossKg: 9_000, vgmKg: 9_000 });
  await assert.rejects(cargo.moveContainer(bottom.id, slot("A1-02-01-1")), /is under/);
});

test("a move across blocks takes both locks and lands in the other block", async () => {
  const { cargo, ctx } = cargoUnderTest();
  const box = await boxAt(cargo, "A1-01-01-1");
  const moving = cargo.moveContainer(box.id, slot("A2-01-01-1"));
  await Promise.resolve();
  await Promise.resolve();
  assert.equal(ctx.locks.isLocked("block:A1"), true);
  assert.equal(ctx.locks.isLocked("block:A2"), true);
  await moving;
  assert.equal(cargo.getContainer(box.id).slot.blockId, "A2");
  assert.equal(ctx.locks.isLocked("block:A1"), false);
});

test("opposite moves between two blocks do not deadlock", async () => {
  const { cargo } = cargoUnderTest();
  const a = await boxAt(cargo, "A1-01-01-1");
  const b = await boxAt(cargo, "A2-01-01-1");
  await Promise.all([cargo.moveContainer(a.id, slot("A2-02-01-1")), cargo.moveContainer(b.id, slot("A1-02-01-1"))]);
  assert.equal(cargo.getContainer(a.id).slot.blockId, "A2");
  assert.equal(cargo.getContainer(b.id).slot.blockId, "A1");
});

test("a reefer keeps its plug when it moves inside its block", async () => {
  const { cargo } = cargoUnderTest({ blocks: [BLOCK_R1, BLOCK_R2] });
  const reefer = await boxAt(cargo, "R1-01-01-1", { setPointC: -18 });
  await cargo.moveContainer(reefer.id, slot("R1-02-01-1"));
  assert.equal(cargo.reports.reefers.board()[0].plugsUsed, 1);
  await cargo.unplug(reefer.id);
  await cargo.moveContainer(reefer.id, slot("R2-01-01-1"));
  assert.equal(cargo.getContainer(reefer.id).slot.blockId, "R2");
});

test("an unknown reason and a move onto its own stack are refused", async () => {
  const { cargo } = cargoUnderTest();
  const box = await boxAt(cargo, "A1-01-01-1");
  await assert.rejects(cargo.moveContainer(box.id, slot("A1-02-01-1"), { reason: "fun" }), /unknown move reason/);
  await assert.rejects(cargo.moveContainer(box.id, slot("A1-01-01-2")), /already in stack/);
});
