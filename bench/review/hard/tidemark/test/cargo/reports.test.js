import assert from "node:assert/strict";
import { test } from "node:test";
import { occupancyTable } from "../../src/cargo/format/occupancyTable.js";
import { containerLine } from "../../src/cargo/format/containerLine.js";
import { boxAt, cargoUnderTest } from "./fixtures.js";

test("block occupancy in boxes, TEU and full stacks", async () => {
  const { cargo } = cargoUnderTest();
  await boxAt(cargo, "A1-01-01-1", { sizeType: "45G1", tareKg: 3_900, grossKg: 20_000, vgmKg: 20_000 });
  await boxAt(cargo, "A1-01-01-2", { sizeType: "45G1", tareKg: 3_900, grossKg: 19_000, vgmKg: 19_000 });
  await boxAt(cargo, "A1-01-01-3", { sizeType: "45G1", tareKg: 3_900, grossKg: 18_000, vgmKg: 18_000 });
  await boxAt(cargo, "A1-01-01-4", { sizeType: "45G1", tareKg: 3_900, grossKg: 17_000, vgmKg: 17_000 });
  await boxAt(cargo, "A1-02-01-1");
  const report = cargo.reports.occupancy.blockOccupancy("A1");
  assert.deepEqual(report, { blockId: "A1", capacity: 96, boxes: 5, teu: 9, fillPermille: 52, fullStacks: 1, reeferPlugs: null });
});

test("the yard adds its blocks up; the table prints them", async () => {
  const { cargo } = cargoUnderTest();
  await boxAt(cargo, "A1-01-01-1");
  await boxAt(cargo, "R1-01-01-1", { setPointC: -18 });
  const yard = cargo.reports.occupancy.yardOccupancy();
  assert.equal(yard.capacity, 96 + 96 + 24 + 72);
  assert.equal(yard.boxes, 2);
  assert.deepEqual(yard.blocks.find((b) => b.blockId === "R1").reeferPlugs, { total: 40, used: 1 });
  const table = occupancyTable(yard).split("\n");
  assert.equal(table.length, 6);
  assert.match(table[4], /^R1 +1 +24 +2 +4,2 % {2}1\/40$/);
  assert.match(table[5], /^yard +2 +288 +3 +0,7 %$/);
});

test("where one line's boxes stand", async () => {
  const { cargo } = cargoUnderTest();
  await boxAt(cargo, "A2-01-01-1", { line: "CMA" });
  await boxAt(cargo, "A1-01-01-1", { line: "CMA" });
  await boxAt(cargo, "A1-02-01-1", { line: "CMA" });
  await boxAt(cargo, "A1-03-01-1");
  assert.deepEqual(cargo.reports.occupancy.lineShare("CMA"), [{ blockId: "A1", boxes: 2 }, { blockId: "A2", boxes: 1 }]);
});

test("one line per box", async () => {
  const { cargo } = cargoUnderTest();
  const r = await boxAt(cargo, "R1-01-02-1", { setPointC: -18, vgmKg: 24_349, grossKg: 24_000 });
  assert.equal(containerLine(r), `${r.number}  45R1  R1-01-02-1  24,3 t  -18,0 °C`);
});
