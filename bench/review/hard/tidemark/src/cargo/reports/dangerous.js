// Dangerous goods in the yard, grouped by IMDG class for the harbour master's daily list, with any
// pair standing closer than the segregation table allows (there should be none: placement and moves
// refuse it, but a class corrected after placement can create one).

import { isDangerous } from "../records/container.js";
import { IMDG_CLASSES } from "../records/imdg.js";
import { slotLabel } from "../records/slot.js";
import { segregationConflicts } from "../dangerous/check.js";

export function createDangerousReport({ occupancy, blocks }) {
  function dangerousInYard() {
    return blocks.listBlocks().flatMap((b) => occupancy.inBlock(b.id).filter(isDangerous));
  }

  function byClass() {
    const boxes = dangerousInYard();
    return IMDG_CLASSES.map((imdgClass) => ({
      imdgClass,
      boxes: boxes.filter((c) => c.imdgClass === imdgClass).map((c) => ({ number: c.number, slot: slotLabel(c.slot) })),
    })).filter((group) => group.boxes.length > 0);
  }

  /** Pairs too close, each pair once (the lower id first). */
  function violations() {
    const boxes = dangerousInYard();
    const found = [];
    for (const c of boxes) {
      for (const conflict of segregationConflicts(c, c.slot, boxes)) {
        if (c.id < conflict.containerId) found.push({ a: c.number, b: conflict.number, level: conflict.level });
      }
    }
    return found;
  }

  return { byClass, violations };
}
