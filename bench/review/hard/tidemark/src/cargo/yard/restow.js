// Restows: to lift a box that is not on top, the boxes over it go to other stacks of the same block
// first. Each one goes where the suggester puts it, asked afresh after the previous move.

import { ConflictError } from "../../core/errors.js";
import { stackKey } from "../records/slot.js";

export function createRestow({ registry, occupancy, suggester, moves }) {
  /** Moves away everything over the box; returns the moves made, in the order they were made. */
  async function uncover(containerId) {
    const target = registry.getContainer(containerId);
    if (target.slot === null) throw new ConflictError(`${target.number} is not in the yard`);
    const made = [];
    // containersAbove hands them over top first, so each box is free to lift when its turn comes.
    for (const box of occupancy.containersAbove(target.slot)) {
      const to = suggester.suggestSlot(target.slot.blockId, box, { avoidStack: stackKey(target.slot) });
      if (to === null) throw new ConflictError(`block ${target.slot.blockId} has no room to restow ${box.number}`);
      await moves.moveContainer(box.id, to, { reason: "restow" });
      made.push({ containerId: box.id, from: box.slot, to });
    }
    return made;
  }

  /** How many moves lifting the box would cost now. */
  function restowCount(containerId) {
    const target = registry.getContainer(containerId);
    return target.slot === null ? 0 : occupancy.containersAbove(target.slot).length;
  }

  return { uncover, restowCount };
}
