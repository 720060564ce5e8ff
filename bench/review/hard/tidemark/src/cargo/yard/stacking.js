// The stacking rules, as pure checks over a block, a slot, the stack under it and the box:
// - the slot lies inside the block and sits right on top of the stack (nothing floats);
// - corner castings line up (a 20' box never stands on a 40' one or the other way round);
// - a box is never heavier than the one below it (so restows take the light ones off first);
// - reefers stand only in reefer blocks, dangerous goods only in blocks licensed for them.

import { ConflictError } from "../../core/errors.js";
import { isDangerous, isReefer } from "../records/container.js";
import { sameFootprint } from "../records/sizeType.js";
import { assertSlotInBlock, slotLabel } from "../records/slot.js";
import { heavierThan } from "../containers/weights.js";

/** The first rule a placement breaks, as a sentence, or null when it breaks none. */
export function stackingProblem({ block, slot, stack, container }) {
  assertSlotInBlock(block, slot);
  const label = slotLabel(slot);
  if (slot.tier !== stack.length + 1) return `${label} is not the top of its stack (height ${stack.length})`;
  const below = stack.at(-1);
  if (below && !sameFootprint(below.sizeType, container.sizeType)) return `${container.number} does not fit on ${below.sizeType}`;
  if (below && heavierThan(container, below)) return `${container.number} is heavier than ${below.number} below it`;
  if (isReefer(container) && !block.reefer) return `block ${block.id} has no reefer plugs`;
  if (isDangerous(container) && !block.dangerous) return `block ${block.id} is not licensed for dangerous goods`;
  return null;
}

export function assertCanPlace(args) {
  const problem = stackingProblem(args);
  if (problem) throw new ConflictError(problem);
}

/** The tier the next box in a stack would take, or null when the stack is full. */
export function nextTier(block, stack) {
  return stack.length < block.tiers ? stack.length + 1 : null;
}
