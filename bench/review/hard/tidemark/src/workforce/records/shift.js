// A shift: one worker on one vessel operation for a half-open { start, end }, in one skill. A
// gang's shifts carry its gangId. A released shift stays in the table with status "released".

import { ValidationError } from "../../core/errors.js";
import { interval } from "../../core/time.js";
import { required } from "../../core/validate.js";
import { assertSkill } from "./skills.js";

export const SHIFT_STATUS = Object.freeze(["assigned", "released"]);

export function newShift(input, id, now) {
  required(input, ["workerId", "operationId", "skill", "start", "end"]);
  const { start, end } = interval(input.start, input.end);
  if (input.gangId !== undefined && input.gangId !== null && typeof input.gangId !== "string") {
    throw new ValidationError("gangId", "must be a gang id");
  }
  return {
    id,
    workerId: input.workerId,
    operationId: input.operationId,
    skill: assertSkill(input.skill),
    gangId: input.gangId ?? null,
    start,
    end,
    status: "assigned",
    assignedAt: now,
    releasedAt: null,
  };
}

export const isLive = (shift) => shift.status === "assigned";
