import assert from "node:assert/strict";
import { test } from "node:test";
import { createCargo } from "../src/cargo/index.js";
import { withCheckDigit } from "../src/cargo/records/iso6346.js";
import { testContext } from "../test/support/context.js";

test("a VGM lighter than the undeclared box below needs no restow", async () => {
  const cargo = createCargo(testContext(), { billing: { chargeStorage: () => {} } });
  cargo.createBlock({ id: "A1", rows: 2, bays: 2, tiers: 4 });
  // Boxes from a manifest: booked gross only, no VGM yet.
  const bottom = cargo.registerContainer({ number: withCheckDigit("HLX", 301), sizeType: "22G1", line: "HLX", tareKg: 2_200, grossKg: 20_000 });
  const top = cargo.registerContainer({ number: withCheckDigit("HLX", 302), sizeType: "22G1", line: "HLX", tareKg: 2_200, grossKg: 8_000 });
  await cargo.gateIn(bottom.id, { blockId: "A1", row: 1, bay: 1, tier: 1 });
  await cargo.gateIn(top.id, { blockId: "A1", row: 1, bay: 1, tier: 2 });
  assert.equal(cargo.declareVgm(top.id, 12_000).restowNeeded, false);
  assert.equal(cargo.declareVgm(bottom.id, 19_000).restowNeeded, false);
  assert.equal(cargo.declareVgm(top.id, 19_500).restowNeeded, true);
});
