import assert from "node:assert/strict";
import { test } from "node:test";
import { dwellBand, dwellMinutes, freeDaysLeft } from "../../src/cargo/dwell/dwell.js";
import { openStacks } from "../../src/cargo/format/blockLayout.js";
import { dwellTable, reeferBoardTable } from "../../src/cargo/format/occupancyTable.js";
import { imdgLabel, sameDayOnly } from "../../src/cargo/records/imdg.js";
import { DAY, HOUR } from "../../src/core/time.js";
import { T0 } from "../support/context.js";
import { BLOCK_R1, boxAt, cargoUnderTest } from "./fixtures.js";

test("a block from above: heights, dots for empty stacks, stars for full ones", async () => {
  const { cargo } = cargoUnderTest({ blocks: [{ id: "C1", rows: 2, bays: 3, tiers: 2 }] });
  await boxAt(cargo, "C1-01-01-1");
  await boxAt(cargo, "C1-01-01-2", { grossKg: 9_000, vgmKg: 9_000 });
  await boxAt(cargo, "C1-02-03-1");
  assert.equal(cargo.reports.layout("C1"), ["block C1 (2 rows x 3 bays, 2 high)", "    123", "01  *..", "02  ..1"].join("\n"));
});

test("open stacks leave out the full ones", () => {
  const block = { id: "C1", rows: 1, bays: 3, tiers: 1 };
  const stacks = new Map([["C1-01-02", [{}]]]);
  assert.deepEqual(openStacks(block, stacks), ["01-01", "01-03"]);
});

test("the reefer board prints alarms in capitals", async () => {
  const { cargo, temperatures } = cargoUnderTest({ blocks: [BLOCK_R1] });
  const fruit = await boxAt(cargo, "R1-01-01-1", { setPointC: 4 });
  temperatures.set(fruit.number, 5.5);
  cargo.sweepReefers();
  const text = reeferBoardTable(cargo.reports.reefers.board());
  assert.equal(text, [`block R1: 1 plugged, 39 free`, `  ${fruit.number}  R1-01-01-1    4,0   5,5  HIGH`].join("\n"));
});

test("dwell minutes, free days left and bands", () => {
  const box = { gateInAt: T0, gateOutAt: null };
  assert.equal(dwellMinutes(box, T0 + HOUR + 30_000), 60);
  assert.equal(freeDaysLeft(box, T0 + DAY + 1, 5), 3);
  assert.equal(freeDaysLeft(box, T0 + 9 * DAY, 5), 0);
  assert.deepEqual([0, 5, 6, 20, 21].map(dwellBand), ["0-5", "0-5", "6-10", "11-20", "21+"]);
  assert.equal(dwellTable([{ number: "MSCU0001003", line: "MSC", days: 8, chargeableDays: 3 }]).split("\n")[1], "MSCU0001003  MSC      8        3");
});

test("IMDG labels", () => {
  assert.equal(imdgLabel("3"), "class 3 (flammable liquids)");
  assert.equal(sameDayOnly("7"), true);
  assert.equal(sameDayOnly("9"), false);
});
