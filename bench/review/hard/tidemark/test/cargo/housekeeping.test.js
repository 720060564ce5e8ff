import assert from "node:assert/strict";
import { test } from "node:test";
import { untilNextRun } from "../../src/cargo/yard/housekeeping.js";
import { DAY, HOUR } from "../../src/core/time.js";
import { T0 } from "../support/context.js";
import { boxAt, cargoUnderTest } from "./fixtures.js";

test("the night run is at 02:00 UTC", () => {
  assert.equal(untilNextRun(T0), 2 * HOUR);
  assert.equal(untilNextRun(T0 + 2 * HOUR), DAY);
  assert.equal(untilNextRun(T0 + 3 * HOUR), 23 * HOUR);
});

test("a box a late VGM left out of order is moved at night", async () => {
  const { cargo } = cargoUnderTest();
  await boxAt(cargo, "A1-01-01-1", { grossKg: 15_000, vgmKg: 15_000 });
  const top = await boxAt(cargo, "A1-01-01-2", { grossKg: 12_000, vgmKg: 12_000 });
  cargo.declareVgm(top.id, 18_000);
  assert.deepEqual(cargo.awaitingRestow().map((c) => c.id), [top.id]);
  const { moved, waiting } = await cargo.housekeeping.run();
  assert.deepEqual(moved, [top.id]);
  assert.deepEqual(waiting, []);
  assert.equal(cargo.getContainer(top.id).slot.tier, 1);
  assert.deepEqual(cargo.awaitingRestow(), []);
});

test("a box with another on top waits for a later night", async () => {
  const { cargo } = cargoUnderTest();
  await boxAt(cargo, "A1-01-01-1", { grossKg: 15_000, vgmKg: 15_000 });
  const middle = await boxAt(cargo, "A1-01-01-2", { grossKg: 12_000, vgmKg: 12_000 });
  await boxAt(cargo, "A1-01-01-3", { grossKg: 10_000, vgmKg: 10_000 });
  cargo.declareVgm(middle.id, 16_000);
  const { moved, waiting } = await cargo.housekeeping.run();
  assert.deepEqual(moved, []);
  assert.deepEqual(waiting, [middle.id]);
});

test("start waits for 02:00, then runs daily; stop cancels", async () => {
  const { cargo, ctx } = cargoUnderTest();
  const runs = () => ctx.log.lines.filter((l) => l.message === "housekeeping").length;
  const before = ctx.scheduler.pending();
  cargo.housekeeping.start();
  ctx.scheduler.tick(HOUR);
  assert.equal(runs(), 0);
  ctx.scheduler.tick(HOUR);
  await Promise.resolve();
  assert.equal(runs(), 1);
  ctx.scheduler.tick(DAY);
  await Promise.resolve();
  assert.equal(runs(), 2);
  assert.equal(ctx.scheduler.pending(), before + 1);
  cargo.stop();
  assert.equal(ctx.scheduler.pending(), before);
  assert.equal(cargo.housekeeping.running(), false);
});
