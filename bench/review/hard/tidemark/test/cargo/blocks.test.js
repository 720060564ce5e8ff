import assert from "node:assert/strict";
import { test } from "node:test";
import { capacityOf, newBlock } from "../../src/cargo/records/block.js";
import { parseSlotLabel, slotLabel, stackDistance, stackKey } from "../../src/cargo/records/slot.js";
import { loadConfig } from "../../src/core/config.js";
import { containerCard } from "../../src/cargo/format/containerLine.js";
import { createCargoStores } from "../../src/cargo/stores.js";
import { createBlocks } from "../../src/cargo/yard/blocks.js";
import { testContext } from "../support/context.js";
import { aBox, cargoUnderTest } from "./fixtures.js";

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

test("areas and capacity of the yard", () => {
  const blocks = createBlocks(testContext(), createCargoStores());
  blocks.createBlock({ id: "A1", rows: 4, bays: 6, tiers: 4 });
  blocks.createBlock({ id: "A2", rows: 2, bays: 5, tiers: 3 });
  blocks.createBlock({ id: "R1", rows: 2, bays: 4, tiers: 3, reefer: true });
  assert.deepEqual(blocks.blocksInArea("A").map((b) => b.id), ["A1", "A2"]);
  assert.deepEqual(blocks.capacity(), { boxes: 96 + 30 + 24, groundSlots: 24 + 10 + 8 });
  assert.deepEqual(blocks.capacity((b) => b.reefer), { boxes: 24, groundSlots: 8 });
  assert.equal(blocks.blockOfLabel("A2-01-05-3").id, "A2");
  assert.throws(() => blocks.blockOfLabel("B9-01-01-1"), /not found/);
});

test("the gate clerk's card shows a missing VGM", async () => {
  const { cargo } = cargoUnderTest();
  const box = cargo.registerContainer(aBox({ vgmKg: undefined, imdgClass: "3" }));
  const card = containerCard(box).split("\n");
  assert.equal(card[4], "VGM      not declared");
  assert.equal(card[5], "IMDG     class 3 (flammable liquids)");
  assert.equal(card.length, 6);
});
