/**
 * The jobs' reading of a step's result, per role (agent/roles.ts names each role's result tool;
 * its parser lives here, beside the jobs that read it): runChain's `checkOutput` hook.
 */
import type { RoleName } from "../agent/roles.js";
import type { StepRef } from "../chain/run-chain.js";
import type { StepOutput } from "../tools/types.js";
import { planOf } from "../plan/plan-result.js";
import { reviewOf } from "../review/review-result.js";

/**
 * Why a finished step's output is not a result, for the roles whose output the job reads: a
 * planner's text with no plan, a reviewer's with neither findings nor a summary. Never a silent
 * empty success: the job fails with this, the text stays in the transcript.
 */
const RESULT_PROBLEMS: Partial<Record<RoleName, (output: StepOutput) => string | undefined>> = {
  planner: (output) =>
    planOf(output).steps.length === 0
      ? 'the planner gave no plan: it did not call submit_plan, and its reply has no numbered list under a heading containing "plan"'
      : undefined,
  reviewer: (output) => {
    if (output.submission) return undefined;
    const review = reviewOf(output);
    const empty = review.findings.length === 0 && (review.notes ?? []).length === 0 && review.summary.trim() === "";
    return empty ? "the reviewer gave no review: it did not call submit_review, and its reply has no findings under a severity heading and no `## Summary`" : undefined;
  },
};

/** Why the output of a step of `role` is no result; undefined when it is one, or when no job reads that role's output. */
export function outputProblem(role: string, output: StepOutput): string | undefined {
  return Object.hasOwn(RESULT_PROBLEMS, role) ? RESULT_PROBLEMS[role as RoleName]?.(output) : undefined;
}

/** runChain's `checkOutput`: the job's parser for the step's role. */
export const checkStepOutput = (step: StepRef, output: StepOutput): string | undefined => outputProblem(step.role, output);
