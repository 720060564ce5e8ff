// Where boxes stand, read from the container records on every call so it is never stale. A box is
// in a slot when it is in the yard and its record names the slot.

import { sameSlot, sameStack, stackKey } from "../records/slot.js";

const byTier = (a, b) => a.slot.tier - b.slot.tier;

export function createOccupancy(stores) {
  const placed = (where = () => true) =>
    stores.containers.list((c) => c.status === "in-yard" && c.slot !== null && where(c));

  /** The box in a slot, or null. */
  function occupant(slot) {
    return placed((c) => sameSlot(c.slot, slot))[0] ?? null;
  }

  /** A stack's boxes from the ground up. */
  function stackAt(blockId, row, bay) {
    return placed((c) => sameStack(c.slot, { blockId, row, bay })).toSorted(byTier);
  }

  const topOf = (blockId, row, bay) => stackAt(blockId, row, bay).at(-1) ?? null;
  const heightOf = (blockId, row, bay) => stackAt(blockId, row, bay).length;

  /** What stands over a slot in its stack. */
  function containersAbove(slot) {
    const block = stores.blocks.get(slot.blockId);
    const above = [];
    for (let tier = block.tiers; tier > slot.tier; tier--) {
      const c = occupant({ ...slot, tier });
      if (c) above.push(c);
    }
    return above;
  }

  const inBlock = (blockId) => placed((c) => c.slot.blockId === blockId);

  /** The block's stacks by key ("A1-02-07"), each from the ground up; empty stacks are absent. */
  function stacksOf(blockId) {
    const stacks = new Map();
    for (const c of inBlock(blockId).toSorted(byTier)) {
      const key = stackKey(c.slot);
      stacks.set(key, [...(stacks.get(key) ?? []), c]);
    }
    return stacks;
  }

  return { occupant, stackAt, topOf, heightOf, containersAbove, inBlock, stacksOf };
}
