import assert from "node:assert/strict";
import { test } from "node:test";
import { createCargo } from "../src/cargo/index.js";
import { withCheckDigit } from "../src/cargo/records/iso6346.js";
import { testContext } from "../test/support/context.js";

const within = (promise, ms) =>
  Promise.race([
    promise.then(
      () => "settled",
      () => "settled",
    ),
    new Promise((resolve) => setTimeout(() => resolve("timed out"), ms)),
  ]);

test("moving a plugged reefer to another block settles and leaves no block locked", async () => {
  const ctx = testContext();
  const cargo = createCargo(ctx, { billing: { chargeStorage: () => {} } });
  cargo.createBlock({ id: "R1", rows: 2, bays: 4, tiers: 3, reefer: true });
  cargo.createBlock({ id: "R2", rows: 2, bays: 4, tiers: 3, reefer: true });
  const reefer = cargo.registerContainer({ number: withCheckDigit("MSC", 901), sizeType: "45R1", line: "MSC", tareKg: 4_600, grossKg: 26_000, setPointC: -18 });
  await cargo.gateIn(reefer.id, { blockId: "R1", row: 1, bay: 1, tier: 1 });
  const outcome = await within(cargo.moveContainer(reefer.id, { blockId: "R2", row: 1, bay: 1, tier: 1 }), 300);
  assert.equal(outcome, "settled");
  assert.equal(ctx.locks.isLocked("block:R1"), false);
  assert.equal(ctx.locks.isLocked("block:R2"), false);
  // the block stays usable afterwards
  const other = cargo.registerContainer({ number: withCheckDigit("MSC", 902), sizeType: "45R1", line: "MSC", tareKg: 4_600, grossKg: 20_000, setPointC: 4 });
  assert.equal(await within(cargo.gateIn(other.id, { blockId: "R1", row: 2, bay: 1, tier: 1 }), 300), "settled");
});
