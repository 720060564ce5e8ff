// A slot is where one box stands: block, row (1..rows), bay (1..bays) and tier (1 is the ground).
// Its label is what the straddle carrier drivers read: "A1-02-07-3".

import { ValidationError } from "../../core/errors.js";

const LABEL = /^([A-Z][1-9]\d?)-(\d{2})-(\d{2})-(\d)$/;

export const pad2 = (n) => String(n).padStart(2, "0");

export const slotLabel = (slot) => `${slot.blockId}-${pad2(slot.row)}-${pad2(slot.bay)}-${slot.tier}`;

/** The stack a slot belongs to: "A1-02-07". */
export const stackKey = (slot) => `${slot.blockId}-${pad2(slot.row)}-${pad2(slot.bay)}`;

export function parseSlotLabel(label, field = "slot") {
  const m = LABEL.exec(String(label ?? "").trim());
  if (!m) throw new ValidationError(field, `not a slot label: ${label}`);
  return { blockId: m[1], row: Number(m[2]), bay: Number(m[3]), tier: Number(m[4]) };
}

export const sameSlot = (a, b) => a.blockId === b.blockId && a.row === b.row && a.bay === b.bay && a.tier === b.tier;
export const sameStack = (a, b) => a.blockId === b.blockId && a.row === b.row && a.bay === b.bay;

export function assertSlotInBlock(block, slot) {
  if (slot.blockId !== block.id) throw new ValidationError("slot", `${slotLabel(slot)} is not in block ${block.id}`);
  if (slot.row < 1 || slot.row > block.rows) throw new ValidationError("slot", `block ${block.id} has rows 1-${block.rows}`);
  if (slot.bay < 1 || slot.bay > block.bays) throw new ValidationError("slot", `block ${block.id} has bays 1-${block.bays}`);
  if (slot.tier < 1 || slot.tier > block.tiers) throw new ValidationError("slot", `block ${block.id} stacks ${block.tiers} high`);
  return slot;
}

/** Stacks apart, counted the way the segregation rules count them; other blocks are out of reach. */
export function stackDistance(a, b) {
  if (a.blockId !== b.blockId) return Infinity;
  return Math.max(Math.abs(a.row - b.row), Math.abs(a.bay - b.bay));
}
