// Checks a dangerous box against the dangerous boxes already in the yard. Boxes in other blocks are
// always far enough: stackDistance counts them as out of reach, which is what level 4 asks for.

import { ConflictError } from "../../core/errors.js";
import { isDangerous } from "../records/container.js";
import { slotLabel, stackDistance } from "../records/slot.js";
import { LEVEL_NAMES, minimumStacks, segregationLevel } from "./segregation.js";

/** The boxes a placement would stand too close to, with the level each needs. */
export function segregationConflicts(container, slot, others) {
  if (!isDangerous(container)) return [];
  const conflicts = [];
  for (const other of others) {
    if (other.id === container.id || !isDangerous(other) || other.slot === null) continue;
    const needed = minimumStacks(container.imdgClass, other.imdgClass);
    if (needed === 0) continue;
    const distance = stackDistance(slot, other.slot);
    if (distance < needed) {
      conflicts.push({ containerId: other.id, number: other.number, level: segregationLevel(container.imdgClass, other.imdgClass) });
    }
  }
  return conflicts;
}

export function assertSegregated(container, slot, others) {
  const conflicts = segregationConflicts(container, slot, others);
  if (conflicts.length === 0) return;
  const first = conflicts[0];
  throw new ConflictError(
    `${container.number} (class ${container.imdgClass}) at ${slotLabel(slot)} must be ${LEVEL_NAMES[first.level]} ${first.number}`,
  );
}
