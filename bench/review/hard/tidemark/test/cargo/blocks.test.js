import assert from "node:assert/strict";
import { test } from "node:test";
import { capacityOf, newBlock } from "../../src/cargo/records/block.js";
import { parseSlotLabel, slotLabel, stackDistance, stackKey } from "../../src/cargo/records/slot.js";
import { loadConfig } from "../../src/core/config.js";
import { cargoUnderTest } from "./fixtures.js";

test("a block stacks no higher than the yard allows", () => {
  const config = loadConfig();
  assert.equal(newBlock({ id: "B3", rows: 6, bays: 30, tiers: 6 }, config).tiers, 6);
  assert.throws(() => newBlock({ id: "B3", rows: 6, bays: 30, tiers: 7 }, config), /at most 6 high/);
  assert.throws(() => newBlock({ id: "B3", rows: 6, bays: 30, tiers: 5 }, loadConfig({ cargo: { maxStackTiers: 4 } })), /at most 4/);
  assert.throws(() => newBlock({ id: "b3", rows: 6, bays: 30, tiers: 5 }, config), /id/);
  assert.throws(() => newBlock({ id: "B3", rows: 0, bays: 30, tiers: 5 }, config), /rows/);
  assert.equal(capacityOf(newBlock({ id: "B3", rows: 6, bays: 30, tiers: 5 }, config)), 900);
});

test("slot labels round-trip", () => {
  const slot = parseSlotLabel("A1-02-07-3");
  assert.deepEqual(slot, { blockId: "A1", row: 2, bay: 7, tier: 3 });
  assert.equal(slotLabel(slot), "A1-02-07-3");
  assert.equal(stackKey(slot), "A1-02-07");
  assert.throws(() => parseSlotLabel("A1-2-7-3"), /not a slot label/);
});

test("stack distance is Chebyshev inside a block and infinite across blocks", () => {
  const a = parseSlotLabel("A1-01-01-1");
  assert.equal(stackDistance(a, parseSlotLabel("A1-03-02-1")), 2);
  assert.equal(stackDistance(a, parseSlotLabel("A1-01-01-4")), 0);
  assert.equal(stackDistance(a, parseSlotLabel("A2-01-01-1")), Infinity);
});

test("blocks are created once and announced", () => {
  const { cargo, ctx } = cargoUnderTest({ blocks: [] });
  const seen = [];
  ctx.events.subscribe("cargo.block.created", (e) => seen.push(e.blockId));
  cargo.createBlock({ id: "C1", rows: 2, bays: 2, tiers: 2 });
  assert.throws(() => cargo.createBlock({ id: "C1", rows: 2, bays: 2, tiers: 2 }), /exists/);
  assert.deepEqual(seen, ["C1"]);
  assert.equal(cargo.findBlock("C9"), null);
  assert.throws(() => cargo.getBlock("C9"), /not found/);
  assert.equal(cargo.getBlock("C1").name, "Block C1");
});
