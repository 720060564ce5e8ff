// Every rule a stay at a berth must pass, in one place, so creating, moving and rescheduling a
// booking check the same things. The caller holds the berth's lock.

import { ConflictError, ValidationError } from "../../core/errors.js";
import { describeConflict, conflictsOnBerth } from "./overlap.js";
import { fenderConflicts } from "./fenders.js";
import { assertClearance } from "./clearance.js";
import { assertMinStay } from "./stay.js";
import { assertWithinHorizon } from "./horizon.js";
import { fitReasons } from "./fit.js";

export function createBookable(ctx, parts) {
  const { stores, tides, queries } = parts;

  /**
   * candidate: { berth, vessel: { lengthCm, draughtCm, type }, stay, ignoreId? }.
   * Returns the clearance at the stay's lowest tide; throws the first rule broken.
   */
  function assertBookable(candidate) {
    const { berth, vessel, stay } = candidate;
    const ignoreId = candidate.ignoreId ?? null;
    const reasons = fitReasons(berth, vessel);
    if (reasons.length > 0) throw new ValidationError("berthId", reasons[0]);
    assertMinStay(ctx, stay);
    assertWithinHorizon(ctx, stay);
    const closed = parts.closures.closuresOverlapping(berth.id, stay);
    if (closed.length > 0) throw new ConflictError(`${berth.id} is closed: ${closed[0].reason}`);
    const conflicts = conflictsOnBerth(queries.activeOnBerth(berth.id), stay, ignoreId);
    if (conflicts.length > 0) throw new ConflictError(describeConflict(conflicts));
    const tooClose = fenderConflicts(
      ctx,
      { berth, lengthCm: vessel.lengthCm, stay, ignoreId },
      queries.activeOnQuay(berth.quayId),
      (id) => stores.berths.get(id),
    );
    if (tooClose.length > 0) {
      throw new ConflictError(`${tooClose[0].gapCm} cm from ${tooClose[0].bookingId} at ${tooClose[0].berthId}, ${ctx.config.berthing.fenderGapCm} cm needed`);
    }
    return assertClearance(ctx, tides, berth, vessel.draughtCm, stay);
  }

  /** The same checks as a yes/no with the reason, for the allocation's what-ifs. */
  function check(candidate) {
    try {
      return { ok: true, clearance: assertBookable(candidate) };
    } catch (error) {
      if (error instanceof ValidationError || error instanceof ConflictError) return { ok: false, reason: error.message };
      throw error;
    }
  }

  return { assertBookable, check };
}
