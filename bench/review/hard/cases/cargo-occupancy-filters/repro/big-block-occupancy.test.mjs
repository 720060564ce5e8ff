import assert from "node:assert/strict";
import { test } from "node:test";
import { createCargo } from "../src/cargo/index.js";
import { withCheckDigit } from "../src/cargo/records/iso6346.js";
import { testContext } from "../test/support/context.js";

test("a block holding more than a page of boxes reports all of them", async () => {
  const cargo = createCargo(testContext(), { billing: { chargeStorage: () => {} } });
  cargo.createBlock({ id: "B1", rows: 10, bays: 10, tiers: 3 });
  let n = 0;
  for (let tier = 1; tier <= 3; tier++) {
    for (let row = 1; row <= 10; row++) {
      for (let bay = 1; bay <= 10 && n < 210; bay++) {
        const box = cargo.registerContainer({ number: withCheckDigit("MSC", 1_000 + n), sizeType: "22G1", line: "MSC", tareKg: 2_200, grossKg: 14_000 });
        await cargo.gateIn(box.id, { blockId: "B1", row, bay, tier });
        n++;
      }
    }
  }
  const report = cargo.reports.occupancy.blockOccupancy("B1");
  assert.equal(report.capacity, 300);
  assert.equal(report.boxes, 210);
  assert.equal(report.teu, 210);
  assert.equal(cargo.reports.occupancy.yardOccupancy().boxes, 210);
});
