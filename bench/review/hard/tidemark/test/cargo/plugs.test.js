import assert from "node:assert/strict";
import { test } from "node:test";
import { createReadings } from "../../src/cargo/reefers/readings.js";
import { createCargoStores } from "../../src/cargo/stores.js";
import { testContext } from "../support/context.js";
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

test("readings: average and trend for the technician", () => {
  const ctx = testContext();
  const readings = createReadings(ctx, createCargoStores());
  assert.equal(readings.trend("CTR-000001"), "steady");
  for (const t of [-18, -17.8, -17.6, -17.4]) {
    readings.record("CTR-000001", t);
    ctx.clock.advance(15 * 60_000);
  }
  assert.equal(readings.trend("CTR-000001"), "rising");
  assert.equal(readings.averageSince("CTR-000001", ctx.clock.now() - 30 * 60_000), -17.5);
  assert.equal(readings.averageSince("CTR-000002", 0), null);
  ctx.clock.advance(2 * 24 * 60 * 60_000);
  assert.equal(readings.prune(), 4);
});
