import assert from "node:assert/strict";
import { test } from "node:test";
import { SWEEP_MS } from "../../src/cargo/reefers/monitor.js";
import { deviationC, outOfBand, toleranceC } from "../../src/cargo/reefers/setpoints.js";
import { BLOCK_R1, boxAt, cargoUnderTest } from "./fixtures.js";

test("bands: frozen cargo drifts further than chilled", () => {
  assert.equal(toleranceC(-18), 1.5);
  assert.equal(toleranceC(4), 0.5);
  assert.equal(deviationC(0.1, 0.3), 0.2);
  assert.equal(outOfBand(4, 4.5), false);
  assert.equal(outOfBand(4, 4.6), true);
});

test("the sweep reads every plugged box and raises one alarm per excursion", async () => {
  const { cargo, ctx, temperatures } = cargoUnderTest({ blocks: [BLOCK_R1] });
  const alarms = [];
  ctx.events.subscribe("cargo.reefer.alarm", (e) => alarms.push(e.kind));
  const fish = await boxAt(cargo, "R1-01-01-1", { setPointC: -18 });
  const fruit = await boxAt(cargo, "R1-01-02-1", { setPointC: 4 });
  temperatures.set(fish.number, -17.9);
  temperatures.set(fruit.number, 6);
  assert.equal(cargo.sweepReefers(), 2);
  assert.equal(cargo.sweepReefers(), 2);
  assert.deepEqual(alarms, ["high"]);
  const board = cargo.reports.reefers.board()[0];
  assert.deepEqual(board.boxes.map((b) => [b.number, b.alarm]), [[fruit.number, "high"], [fish.number, ""]]);
});

test("a reading back in band clears the alarm; a silent unit raises one", async () => {
  const { cargo, ctx, temperatures } = cargoUnderTest({ blocks: [BLOCK_R1] });
  const events = [];
  ctx.events.subscribe("cargo.reefer.alarm", (e) => events.push(e.kind));
  ctx.events.subscribe("cargo.reefer.alarm-cleared", () => events.push("cleared"));
  const fruit = await boxAt(cargo, "R1-01-01-1", { setPointC: 4 });
  temperatures.set(fruit.number, 2);
  cargo.sweepReefers();
  temperatures.set(fruit.number, 4.2);
  cargo.sweepReefers();
  temperatures.delete(fruit.number);
  cargo.sweepReefers();
  assert.deepEqual(events, ["low", "cleared", "silent"]);
});

test("start schedules the sweep and stop cancels it", async () => {
  const { cargo, ctx, temperatures } = cargoUnderTest({ blocks: [BLOCK_R1] });
  const fruit = await boxAt(cargo, "R1-01-01-1", { setPointC: 4 });
  temperatures.set(fruit.number, 4);
  const pendingBefore = ctx.scheduler.pending();
  cargo.start();
  cargo.start();
  assert.equal(ctx.scheduler.pending(), pendingBefore + 1);
  ctx.scheduler.tick(2 * SWEEP_MS);
  assert.equal(ctx.log.lines.filter((l) => l.message === "reefer sweep").length, 2);
  cargo.stop();
  assert.equal(ctx.scheduler.pending(), pendingBefore);
  ctx.scheduler.tick(SWEEP_MS);
  assert.equal(ctx.log.lines.filter((l) => l.message === "reefer sweep").length, 2);
});
