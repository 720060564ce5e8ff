import assert from "node:assert/strict";
import { test } from "node:test";
import { createCargo } from "../src/cargo/index.js";
import { withCheckDigit } from "../src/cargo/records/iso6346.js";
import { testContext } from "../test/support/context.js";

test("a box under two others is uncovered and can leave", async () => {
  const cargo = createCargo(testContext(), { billing: { chargeStorage: () => {} } });
  cargo.createBlock({ id: "A1", rows: 3, bays: 3, tiers: 4 });
  const boxes = [];
  for (const [tier, grossKg] of [[1, 20_000], [2, 15_000], [3, 10_000]]) {
    const box = cargo.registerContainer({ number: withCheckDigit("MSC", 500 + tier), sizeType: "22G1", line: "MSC", tareKg: 2_200, grossKg });
    await cargo.gateIn(box.id, { blockId: "A1", row: 1, bay: 1, tier });
    boxes.push(box);
  }
  const made = await cargo.uncover(boxes[0].id);
  assert.deepEqual(made.map((m) => m.containerId), [boxes[2].id, boxes[1].id]);
  assert.equal(cargo.restowCount(boxes[0].id), 0);
  const { container } = await cargo.gateOut(boxes[0].id);
  assert.equal(container.status, "departed");
});
