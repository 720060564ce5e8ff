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
  model?: string;
  maxTurns?: number;
  /** Why the turn cap is what it is, for a stop's reason. */
  why: string;
  brief?: string;
}

/** What a first look (first-look.ts) makes of a level: none (no first look, or it failed), or the risky hunks it named. */
export type Triage = { risky: number } | undefined;

const TRIAGED =
  "A first look at the diff named the hunks in the context that depend on code outside the diff. Spend your reading, commands and proofs on them: " +
  "read what each relies on (its callers, the definitions and conventions it uses, its tests). Give the other hunks a read of the diff, unless it shows you something.";

const CLEARED =
  "A first look at the diff found no hunk whose correctness depends on code outside it, so this review is one look: the diff and the overview in this context are all you get — " +
  "no file, command or proof tools. Report only what the diff itself shows to be wrong, and hand over your review with `submit_review` in your first reply.";

/**
 * The reviewer's run at a level. After a first look that named no risky hunk, a standard or deep
 * review is that one look: the diff alone shows everything there is to judge.
 */
export function reviewerShape(effort: ReviewEffort, ownMaxTurns: number | undefined, triage?: Triage, firstLookModel?: string): ReviewerShape {
  const clear = triage !== undefined && triage.risky === 0 && !EFFORT[effort].look;
  const row = clear ? EFFORT.quick : EFFORT[effort];
  const maxTurns = row.turns(ownMaxTurns);
  const why = clear ? `review.effort: ${effort}, and the first look found no hunk that needs more than the diff` : `review.effort: ${effort}`;
  const brief = clear ? CLEARED : [row.brief, triage && triage.risky > 0 ? TRIAGED : undefined].filter(Boolean).join("\n\n");
  // The quick level is the first look: on the operator's first-look model when there is one.
  const model = EFFORT[effort].look ? firstLookModel : undefined;
  return { look: row.look, ...(model ? { model } : {}), ...(maxTurns !== undefined ? { maxTurns } : {}), why, ...(brief ? { brief } : {}) };
}

/** Whether a level runs a first look: every level but the one look itself, when the operator names a first-look model. */
export const firstLookRuns = (effort: ReviewEffort, firstLookModel: string | undefined): firstLookModel is string => firstLookModel !== undefined && !EFFORT[effort].look;
