/**
 * What a finished step left: its final text and, when it called one, its result tool's hand-over
 * (DESIGN §3). Reading it as a plan, a review, … is the job's (plan/plan-result.ts,
 * review/review-result.ts, jobs/step-results.ts); the chain only passes it on.
 */
import type { Submission } from "../tools/types.js";

export interface StepOutput {
  text: string;
  submission?: Submission;
}
