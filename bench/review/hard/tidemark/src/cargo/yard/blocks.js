// The yard's blocks. They are laid out once and rarely change, so there is no update: a block that
// is re-striped is a new block. The letter of a block's id is its area (A dry, R reefer, D dangerous
// goods at Alvarim), which the planners use to pick where a vessel's boxes go.

import { BLOCK_CREATED } from "../events.js";
import { capacityOf, groundSlotsOf, newBlock } from "../records/block.js";
import { parseSlotLabel } from "../records/slot.js";

export const areaOf = (blockId) => blockId[0];

export function createBlocks(ctx, stores) {
  function createBlock(input) {
    const block = stores.blocks.insert(newBlock(input, ctx.config));
    ctx.events.publish(BLOCK_CREATED, { blockId: block.id });
    return block;
  }

  const findBlock = (id) => stores.blocks.find(id);
  const getBlock = (id) => stores.blocks.get(id);
  const listBlocks = (where) => stores.blocks.list(where);
  const reeferBlocks = () => stores.blocks.list((b) => b.reefer);

  /** The block a slot label names; throws when the label is malformed or the block unknown. */
  const blockOfLabel = (label) => getBlock(parseSlotLabel(label).blockId);

  /** Blocks of one area, in id order. */
  const blocksInArea = (area) => stores.blocks.list((b) => areaOf(b.id) === area);

  /** Capacity of the yard (or of the blocks a filter keeps), in boxes and ground slots. */
  function capacity(where = () => true) {
    let boxes = 0;
    let ground = 0;
    for (const b of stores.blocks.list(where)) {
      boxes += capacityOf(b);
      ground += groundSlotsOf(b);
    }
    return { boxes, groundSlots: ground };
  }

  return { createBlock, findBlock, getBlock, listBlocks, reeferBlocks, blockOfLabel, blocksInArea, capacity };
}
