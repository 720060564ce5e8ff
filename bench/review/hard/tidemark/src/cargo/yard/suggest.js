// Suggests a slot for a box in a block. Among the stacks the rules allow, it picks the one whose top
// box is the lightest that can still carry it, so heavy boxes keep the ground slots; an empty stack
// comes last. Ties go to the lowest row, then bay, which keeps the straddle carriers' runs short.

import { isDangerous } from "../records/container.js";
import { stackKey } from "../records/slot.js";
import { massOf } from "../containers/weights.js";
import { segregationConflicts } from "../dangerous/check.js";
import { nextTier, stackingProblem } from "./stacking.js";

export function createSuggester(stores, occupancy) {
  function candidates(block, container, avoidStack) {
    const dangerous = isDangerous(container) ? occupancy.inBlock(block.id).filter(isDangerous) : [];
    const found = [];
    for (let row = 1; row <= block.rows; row++) {
      for (let bay = 1; bay <= block.bays; bay++) {
        if (avoidStack && stackKey({ blockId: block.id, row, bay }) === avoidStack) continue;
        const stack = occupancy.stackAt(block.id, row, bay);
        const tier = nextTier(block, stack);
        if (tier === null) continue;
        const slot = { blockId: block.id, row, bay, tier };
        if (stackingProblem({ block, slot, stack, container }) !== null) continue;
        if (segregationConflicts(container, slot, dangerous).length > 0) continue;
        found.push({ slot, topKg: stack.length ? massOf(stack.at(-1)) : Infinity });
      }
    }
    return found;
  }

  /** The best slot for the box, or null when the block has no room it may take. */
  function suggestSlot(blockId, container, { avoidStack } = {}) {
    const block = stores.blocks.get(blockId);
    let best = null;
    for (const candidate of candidates(block, container, avoidStack)) {
      if (best === null || candidate.topKg < best.topKg) best = candidate;
    }
    return best ? best.slot : null;
  }

  return { suggestSlot };
}
