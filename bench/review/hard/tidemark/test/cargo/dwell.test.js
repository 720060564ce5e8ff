import assert from "node:assert/strict";
import { test } from "node:test";
import { chargeableDwellDays, dwellDays, freeTimeEnds } from "../../src/cargo/dwell/dwell.js";
import { DAY, HOUR } from "../../src/core/time.js";
import { T0 } from "../support/context.js";
import { boxAt, cargoUnderTest } from "./fixtures.js";

test("a started day is a dwell day", () => {
  const box = { gateInAt: T0, gateOutAt: null };
  assert.equal(dwellDays(box, T0), 0);
  assert.equal(dwellDays(box, T0 + 1), 1);
  assert.equal(dwellDays(box, T0 + DAY), 1);
  assert.equal(dwellDays(box, T0 + DAY + 1), 2);
  assert.equal(dwellDays({ gateInAt: T0, gateOutAt: T0 + 2 * DAY }, T0 + 9 * DAY), 2);
  assert.equal(dwellDays({ gateInAt: null, gateOutAt: null }, T0), 0);
});

test("free days come off first", () => {
  assert.equal(chargeableDwellDays(3, 5), 0);
  assert.equal(chargeableDwellDays(8, 5), 3);
  assert.equal(freeTimeEnds({ gateInAt: T0 }, 5), T0 + 5 * DAY);
});

test("no charge inside the free time", async () => {
  const { cargo, ctx, charges } = cargoUnderTest();
  const box = await boxAt(cargo, "A1-01-01-1");
  ctx.clock.advance(5 * DAY);
  const { charge } = await cargo.gateOut(box.id);
  assert.equal(charge, null);
  assert.deepEqual(charges, []);
});

test("free days follow the deployment's setting", async () => {
  const { cargo, ctx, charges } = cargoUnderTest({ config: { cargo: { dwellFreeDays: 2 } } });
  const box = await boxAt(cargo, "A1-01-01-1");
  ctx.clock.advance(4 * DAY + HOUR);
  await cargo.gateOut(box.id);
  assert.equal(charges[0].days, 3);
});

test("the overdue list puts the longest stay first", async () => {
  const { cargo, ctx } = cargoUnderTest();
  const old = await boxAt(cargo, "A1-01-01-1");
  ctx.clock.advance(2 * DAY);
  const newer = await boxAt(cargo, "A1-02-01-1", { line: "CMA" });
  ctx.clock.advance(2 * DAY);
  await boxAt(cargo, "A1-03-01-1");
  ctx.clock.advance(4 * DAY);
  const rows = cargo.reports.dwell.overdue();
  assert.deepEqual(rows.map((r) => [r.containerId, r.days, r.chargeableDays]), [[old.id, 8, 3], [newer.id, 6, 1]]);
  assert.deepEqual(cargo.reports.dwell.overdueByLine(), [{ line: "CMA", boxes: 1 }, { line: "MSC", boxes: 1 }]);
});
