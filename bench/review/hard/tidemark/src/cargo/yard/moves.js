// Moves a box from its slot to another, in the same block or across blocks. The move takes both
// blocks' locks in one withLocks call (it sorts them, so two opposite moves cannot deadlock), checks
// the box is on top of its stack, applies the stacking and segregation rules at the target, writes
// the record and the move log, then publishes. A box that has moved stands in weight order again.

import { ConflictError } from "../../core/errors.js";
import { CONTAINER_MOVED } from "../events.js";
import { isDangerous } from "../records/container.js";
import { sameSlot, sameStack, slotLabel } from "../records/slot.js";
import { assertSegregated } from "../dangerous/check.js";
import { assertCanPlace } from "./stacking.js";

export const MOVE_REASONS = Object.freeze(["housekeeping", "restow", "vessel-prestack", "inspection"]);

export function createMoves(ctx, { stores, registry, blocks, occupancy, plugs }) {
  async function moveContainer(containerId, to, { reason = "housekeeping" } = {}) {
    if (!MOVE_REASONS.includes(reason)) throw new ConflictError(`unknown move reason ${reason}`);
    const from = registry.getContainer(containerId).slot;
    if (from === null) throw new ConflictError(`container ${containerId} is not in the yard`);
    return ctx.locks.withLocks([`block:${from.blockId}`, `block:${to.blockId}`], async () => {
      const container = registry.getContainer(containerId);
      if (container.slot === null || !sameSlot(container.slot, from)) {
        throw new ConflictError(`${container.number} moved while this move waited`);
      }
      if (sameStack(from, to)) throw new ConflictError(`${container.number} is already in stack ${slotLabel(to)}`);
      const top = occupancy.topOf(from.blockId, from.row, from.bay);
      if (top.id !== containerId) throw new ConflictError(`${container.number} is under ${top.number}`);
      if (from.blockId !== to.blockId && plugs.plugOf(containerId)) {
        throw new ConflictError(`unplug ${container.number} before moving it out of block ${from.blockId}`);
      }
      const block = blocks.getBlock(to.blockId);
      assertCanPlace({ block, slot: to, stack: occupancy.stackAt(to.blockId, to.row, to.bay), container });
      assertSegregated(container, to, occupancy.inBlock(to.blockId).filter(isDangerous));
      const moved = stores.containers.update(containerId, (c) => ({ ...c, slot: to, restowNeeded: false }));
      stores.moves.insert({ id: stores.ids.move.next(), containerId, from, to, reason, at: ctx.clock.now() });
      ctx.events.publish(CONTAINER_MOVED, { containerId, from, to, reason });
      return moved;
    });
  }

  /** The move log of one box, oldest first. */
  const movesOf = (containerId) => stores.moves.list((m) => m.containerId === containerId);

  return { moveContainer, movesOf };
}
