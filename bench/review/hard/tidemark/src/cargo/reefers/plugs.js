// Reefer plugs. Every reefer block has cargo.reeferPlugsPerBlock of them; a plug belongs to one box
// in that block. Plugging and unplugging take the block's lock, like any change to the block.

import { ConflictError, ValidationError } from "../../core/errors.js";
import { REEFER_PLUGGED, REEFER_UNPLUGGED } from "../events.js";
import { isReefer } from "../records/container.js";

export function createPlugs(ctx, { stores, registry, blocks }) {
  /** The plug a box is on, or null. */
  const plugOf = (containerId) => stores.plugs.list((p) => p.containerId === containerId)[0] ?? null;
  const plugsInBlock = (blockId) => stores.plugs.list((p) => p.blockId === blockId);

  function freePlugs(blockId) {
    const block = blocks.getBlock(blockId);
    return block.reefer ? ctx.config.cargo.reeferPlugsPerBlock - plugsInBlock(blockId).length : 0;
  }

  async function assign(blockId, containerId) {
    return ctx.locks.withLock(`block:${blockId}`, async () => {
      const container = registry.getContainer(containerId);
      if (!isReefer(container)) throw new ValidationError("containerId", `${container.number} is not a reefer`);
      if (container.slot?.blockId !== blockId) throw new ConflictError(`${container.number} is not in block ${blockId}`);
      if (plugOf(containerId)) throw new ConflictError(`${container.number} is already plugged in`);
      if (freePlugs(blockId) <= 0) throw new ConflictError(`block ${blockId} has no free plug`);
      const plug = stores.plugs.insert({ id: stores.ids.plug.next(), blockId, containerId, pluggedAt: ctx.clock.now() });
      ctx.events.publish(REEFER_PLUGGED, { plugId: plug.id, blockId, containerId });
      return plug;
    });
  }

  /** Unplugs a box; a box that is not plugged in is left alone and null comes back. */
  async function release(containerId) {
    const plug = plugOf(containerId);
    if (!plug) return null;
    return ctx.locks.withLock(`block:${plug.blockId}`, async () => {
      stores.plugs.remove(plug.id);
      ctx.events.publish(REEFER_UNPLUGGED, { plugId: plug.id, blockId: plug.blockId, containerId });
      return plug;
    });
  }

  return { plugOf, plugsInBlock, freePlugs, assign, release };
}
