// Yard occupancy: how full each block is, in boxes and TEU, how many stacks are full, and how its
// reefer plugs are used. The yard planners read it every shift change.

import { capacityOf } from "../records/block.js";
import { teuOf } from "../records/sizeType.js";

export function createOccupancyReport(ctx, { blocks, occupancy, plugs, search }) {
  function blockOccupancy(blockId) {
    const block = blocks.getBlock(blockId);
    const boxes = occupancy.inBlock(blockId);
    const capacity = capacityOf(block);
    let fullStacks = 0;
    for (const stack of occupancy.stacksOf(blockId).values()) if (stack.length === block.tiers) fullStacks++;
    return {
      blockId,
      capacity,
      boxes: boxes.length,
      teu: boxes.reduce((sum, c) => sum + teuOf(c.sizeType), 0),
      fillPermille: Math.round((boxes.length * 1000) / capacity),
      fullStacks,
      reeferPlugs: block.reefer
        ? { total: ctx.config.cargo.reeferPlugsPerBlock, used: plugs.plugsInBlock(blockId).length }
        : null,
    };
  }

  /** Every block, in id order, and the yard's totals. */
  function yardOccupancy() {
    const rows = blocks.listBlocks().map((b) => blockOccupancy(b.id));
    const capacity = rows.reduce((s, r) => s + r.capacity, 0);
    const boxes = rows.reduce((s, r) => s + r.boxes, 0);
    return {
      blocks: rows,
      capacity,
      boxes,
      teu: rows.reduce((s, r) => s + r.teu, 0),
      fillPermille: capacity === 0 ? 0 : Math.round((boxes * 1000) / capacity),
    };
  }

  /** Where one line's boxes stand: box count per block, blocks in id order. */
  function lineShare(line) {
    const counts = new Map();
    for (const c of search.searchAll({ line, status: "in-yard" })) counts.set(c.slot.blockId, (counts.get(c.slot.blockId) ?? 0) + 1);
    return [...counts.entries()].toSorted(([a], [b]) => (a < b ? -1 : 1)).map(([blockId, boxes]) => ({ blockId, boxes }));
  }

  return { blockOccupancy, yardOccupancy, lineShare };
}
