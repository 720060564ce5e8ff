import assert from "node:assert/strict";
import { test } from "node:test";
import { createCargo } from "../src/cargo/index.js";
import { withCheckDigit } from "../src/cargo/records/iso6346.js";
import { testContext } from "../test/support/context.js";

const reefer = (serial) => ({
  number: withCheckDigit("MSC", serial), sizeType: "45R1", line: "MSC", tareKg: 4_600, grossKg: 26_000, setPointC: -18,
});

test("two reefers arriving together for the last plug never plug in more than the block has", async () => {
  const cargo = createCargo(testContext({ cargo: { reeferPlugsPerBlock: 1 } }), { billing: { chargeStorage: () => {} } });
  cargo.createBlock({ id: "R1", rows: 2, bays: 4, tiers: 3, reefer: true });
  const a = cargo.registerContainer(reefer(701));
  const b = cargo.registerContainer(reefer(702));
  await Promise.allSettled([
    cargo.gateIn(a.id, { blockId: "R1", row: 1, bay: 1, tier: 1 }),
    cargo.gateIn(b.id, { blockId: "R1", row: 2, bay: 1, tier: 1 }),
  ]);
  const board = cargo.reports.reefers.board()[0];
  assert.ok(board.plugsUsed <= 1, `${board.plugsUsed} reefers plugged into a block with 1 plug`);
  assert.ok(board.plugsFree >= 0, `plugsFree is ${board.plugsFree}`);
});
