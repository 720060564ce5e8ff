import type { JobRecord } from "../queue/types.js";

/**
 * Which job runs. The queue stores `kind`, the command a person gave (`plan`, `implement`,
 * `review`) or `ci-fix`: that is what `commands.*`, the metrics and the transcript pages name. One
 * command can mean different jobs, told apart here, in one place.
 */
export type JobType =
  | "plan"
  /** `/implement` on an issue: scout → planner → worker, a new branch and a draft PR. */
  | "implement-issue"
  /** A ticked approval box: the worker alone on exactly the approved steps. */
  | "implement-approved-plan"
  /** `/implement <feedback>` on a pull request: the worker on the PR's own branch. */
  | "implement-pr-feedback"
  /** A writer's click on "Fix these findings": the worker on the PR's branch, the open findings its task. */
  | "implement-fix-findings"
  /** `/review` or an automatic review of a push. */
  | "review"
  /** A writer's reply in one of crewbot's review threads: the reviewer answers there, read-only. */
  | "review-thread-answer"
  /** `/ask` (or a mention of the app): one read-only agent answers in the progress comment. */
  | "ask"
  /** `/describe`: the describer writes crewbot's summary block in the PR's description. */
  | "describe"
  /** A failed check suite on crewbot's pull request: the worker fixes it on that branch. */
  | "ci-fix"
  /** `/crewbot learn` or a due candidate: the learner words the learnings, the learnings pull request is opened or updated. */
  | "learn"
  /** `/crewbot learnings`: the merged learnings listed with their uses, no model. */
  | "learnings";

export function jobTypeOf(job: Pick<JobRecord, "kind" | "target" | "approvedPlan" | "review" | "fixFindings" | "learn">): JobType {
  switch (job.kind) {
    case "plan":
      return "plan";
    case "implement":
      if (job.fixFindings) return "implement-fix-findings";
      if (job.target.isPullRequest) return "implement-pr-feedback";
      return job.approvedPlan ? "implement-approved-plan" : "implement-issue";
    case "review":
      return job.review?.event === "thread-reply" ? "review-thread-answer" : "review";
    case "ask":
      return "ask";
    case "describe":
      return "describe";
    case "ci-fix":
      return "ci-fix";
    case "learn":
      return job.learn?.action === "list" ? "learnings" : "learn";
  }
}

/** The job types whose worker writes to the checkout (and pushes): never on a stranger's code (jobs/checkout-trust.ts). */
const WRITES: Record<JobType, boolean> = {
  plan: false,
  "implement-issue": true,
  "implement-approved-plan": true,
  "implement-pr-feedback": true,
  "implement-fix-findings": true,
  review: false,
  "review-thread-answer": false,
  ask: false,
  describe: false,
  "ci-fix": true,
  // The learnings pull request is written through the API from the default branch's file: no checkout at all.
  learn: false,
  learnings: false,
};

export const JOB_TYPES = Object.keys(WRITES) as JobType[];

export const writesCheckout = (type: JobType): boolean => WRITES[type];
