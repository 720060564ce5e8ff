// The yard's blocks. They are laid out once and rarely change, so there is no update: a block that
// is re-striped is a new block.

import { BLOCK_CREATED } from "../events.js";
import { newBlock } from "../records/block.js";

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

  return { createBlock, findBlock, getBlock, listBlocks, reeferBlocks };
}
