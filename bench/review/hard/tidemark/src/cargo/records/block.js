// A yard block: a grid of stacks (rows across, bays along) with a tier limit. Block ids are the
// names painted on the ground: a letter for the area and a number ("A1", "R2"). Reefer blocks have
// plugs; how many comes from cargo.reeferPlugsPerBlock.

import { ValidationError } from "../../core/errors.js";
import { assertWhole } from "../../core/units.js";
import { pattern, required } from "../../core/validate.js";

const BLOCK_ID = /^[A-Z][1-9]\d?$/;

export function newBlock(input, config) {
  required(input, ["id", "rows", "bays", "tiers"]);
  pattern(input.id, BLOCK_ID, "id");
  for (const field of ["rows", "bays", "tiers"]) {
    if (assertWhole(input[field], field) === 0) throw new ValidationError(field, "must be at least 1");
  }
  if (input.tiers > config.cargo.maxStackTiers) {
    throw new ValidationError("tiers", `the yard stacks at most ${config.cargo.maxStackTiers} high`);
  }
  return {
    id: input.id,
    name: input.name ?? `Block ${input.id}`,
    rows: input.rows,
    bays: input.bays,
    tiers: input.tiers,
    reefer: input.reefer === true,
    dangerous: input.dangerous === true,
  };
}

/** Ground slots times tiers: how many boxes the block holds when full. */
export const capacityOf = (block) => block.rows * block.bays * block.tiers;
export const groundSlotsOf = (block) => block.rows * block.bays;
