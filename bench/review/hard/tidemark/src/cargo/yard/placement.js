// Puts an announced box into its first slot when it comes through the gate. Runs under the block's
// lock: two trucks unloading into one block at once must not both take the same top slot.

import { ConflictError } from "../../core/errors.js";
import { CONTAINER_PLACED } from "../events.js";
import { isDangerous } from "../records/container.js";
import { assertSegregated } from "../dangerous/check.js";
import { assertCanPlace } from "./stacking.js";

export function createPlacement(ctx, { stores, registry, blocks, occupancy }) {
  async function placeContainer(containerId, slot) {
    return ctx.locks.withLock(`block:${slot.blockId}`, async () => {
      const container = registry.getContainer(containerId);
      if (container.status !== "announced") throw new ConflictError(`${container.number} is ${container.status}`);
      const block = blocks.getBlock(slot.blockId);
      const stack = occupancy.stackAt(slot.blockId, slot.row, slot.bay);
      assertCanPlace({ block, slot, stack, container });
      assertSegregated(container, slot, occupancy.inBlock(slot.blockId).filter(isDangerous));
      const placed = stores.containers.update(containerId, (c) => ({
        ...c,
        status: "in-yard",
        slot,
        gateInAt: ctx.clock.now(),
      }));
      ctx.events.publish(CONTAINER_PLACED, { containerId, slot });
      return placed;
    });
  }

  return { placeContainer };
}
