// Verified gross mass declarations (SOLAS VI/2). A declaration may arrive after the box is stacked;
// when the declared mass leaves the box heavier than the one under it, or lighter than the one on
// it, the box is marked for a restow rather than refused: the declaration is the shipper's, not ours.

import { ConflictError } from "../../core/errors.js";
import { VGM_DECLARED } from "../events.js";
import { assertVgm } from "../records/container.js";
import { massOf } from "./weights.js";

export function createVgm(ctx, { stores, registry, occupancy }) {
  /** Whether a box with this mass would stand out of weight order in its stack. */
  function outOfOrder(container, vgmKg) {
    if (container.slot === null) return false;
    const { slot } = container;
    const below = slot.tier > 1 ? occupancy.occupant({ ...slot, tier: slot.tier - 1 }) : null;
    const above = occupancy.occupant({ ...slot, tier: slot.tier + 1 });
    return (below !== null && vgmKg > massOf(below)) || (above !== null && massOf(above) > vgmKg);
  }

  function declareVgm(containerId, vgmKg, { declaredBy = "shipper" } = {}) {
    const container = registry.getContainer(containerId);
    if (container.status === "departed") throw new ConflictError(`${container.number} has left the yard`);
    assertVgm(vgmKg, container.tareKg);
    const restowNeeded = outOfOrder(container, vgmKg);
    const updated = stores.containers.update(containerId, (c) => ({ ...c, vgmKg, vgmDeclaredBy: declaredBy, restowNeeded }));
    ctx.events.publish(VGM_DECLARED, { containerId, vgmKg, restowNeeded });
    return updated;
  }

  /** Boxes a late VGM has left out of weight order, oldest first. */
  const awaitingRestow = () => stores.containers.list((c) => c.restowNeeded === true && c.status === "in-yard");

  return { declareVgm, awaitingRestow };
}
