/**
 * `review.effort`: what each level does to the reviewer's run, one row per level. The job's
 * `budgets` stay the hard caps over every level; a level only narrows or widens the reviewer's own
 * turn cap, its tools and the review's proofs within them.
 */
import type { ReviewEffort } from "../config/schema.js";

export type { ReviewEffort } from "../config/schema.js";

export interface EffortRow {
  /** One look: the diff in the context and the result tool only — no file, command, skill or proof tools. */
  look: boolean;
  /** The reviewer's turn cap from its own `maxTurns` (undefined: none but the job's `budgets.maxTurns`). */
  turns: (own: number | undefined) => number | undefined;
  /** The proofs a review may run from `review.proofBudget.max`; 0 runs none. */
  proofs: (max: number) => number;
  /** What the reviewer's task adds about its level; nothing for the usual review. */
  brief?: string;
}

export const EFFORT: Readonly<Record<ReviewEffort, EffortRow>> = {
  // Two turns, not one: a `submit_review` the tool refused (a bad line, a missing field) gets one repair.
  quick: {
    look: true,
    turns: () => 2,
    proofs: () => 0,
    brief:
      "This is a quick review: one look. The diff and the overview in this context are all you get — no file, command or proof tools. " +
      "Judge the changes from them, report only what the diff itself shows to be wrong, and hand over your review with `submit_review` in your first reply.",
  },
  standard: { look: false, turns: (own) => own, proofs: (max) => max },
  deep: {
    look: false,
    turns: (own) => (own === undefined ? undefined : own * 2),
    proofs: (max) => max * 2,
    brief:
      "This is a deep review: you have twice the usual turns and proofs. Read the callers, tests and definitions every changed function relies on, " +
      "and where you have `prove`, back every critical and warning finding you can with a reproducer.",
  },
};

/** How the reviewer's step runs at a level, as the chain takes it (chain/run-chain.ts `StepShape`). */
export interface ReviewerShape {
  look: boolean;
  maxTurns?: number;
  /** Why the turn cap is what it is, for a stop's reason. */
  why: string;
  brief?: string;
}

export function reviewerShape(effort: ReviewEffort, ownMaxTurns: number | undefined): ReviewerShape {
  const row = EFFORT[effort];
  const maxTurns = row.turns(ownMaxTurns);
  return { look: row.look, ...(maxTurns !== undefined ? { maxTurns } : {}), why: `review.effort: ${effort}`, ...(row.brief ? { brief: row.brief } : {}) };
}
