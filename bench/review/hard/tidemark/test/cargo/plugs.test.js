import assert from "node:assert/strict";
import { test } from "node:test";
import { aReefer, BLOCK_R1, boxAt, cargoUnderTest, slot } from "./fixtures.js";

test("a reefer is plugged in when it comes through the gate", async () => {
  const { cargo, ctx } = cargoUnderTest({ blocks: [BLOCK_R1] });
  const seen = [];
  ctx.events.subscribe("cargo.reefer.plugged", (e) => seen.push(e.containerId));
  const reefer = await boxAt(cargo, "R1-01-01-1", { setPointC: -18 });
  assert.deepEqual(seen, [reefer.id]);
  await assert.rejects(cargo.plugIn("R1", reefer.id), /already plugged/);
});

test("a block has cargo.reeferPlugsPerBlock plugs", async () => {
  const { cargo } = cargoUnderTest({ blocks: [BLOCK_R1], config: { cargo: { reeferPlugsPerBlock: 2 } } });
  await boxAt(cargo, "R1-01-01-1", { setPointC: -18 });
  await boxAt(cargo, "R1-01-02-1", { setPointC: -18 });
  const third = cargo.registerContainer(aReefer());
  await assert.rejects(cargo.gateIn(third.id, slot("R1-01-03-1")), /no free plug/);
  assert.equal(cargo.getContainer(third.id).status, "announced");
});

test("unplugging frees the plug and tells the board", async () => {
  const { cargo, ctx } = cargoUnderTest({ blocks: [BLOCK_R1] });
  const seen = [];
  ctx.events.subscribe("cargo.reefer.unplugged", (e) => seen.push(e.containerId));
  const reefer = await boxAt(cargo, "R1-01-01-1", { setPointC: 4 });
  assert.equal((await cargo.unplug(reefer.id)).containerId, reefer.id);
  assert.equal(await cargo.unplug(reefer.id), null);
  assert.deepEqual(seen, [reefer.id]);
  assert.equal(cargo.reports.reefers.board()[0].plugsFree, 40);
});

test("only a reefer in the block can be plugged", async () => {
  const { cargo } = cargoUnderTest();
  const box = await boxAt(cargo, "A1-01-01-1");
  await assert.rejects(cargo.plugIn("R1", box.id), /not a reefer/);
  const reefer = cargo.registerContainer(aReefer());
  await assert.rejects(cargo.plugIn("R1", reefer.id), /not in block R1/);
});
