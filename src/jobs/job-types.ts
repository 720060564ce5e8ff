import { JOB_KIND_NAMES, jobAnswer, type AnswerKind } from "../queue/job-kinds.js";
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
  /** `/ask` (or a mention of the app), and every kind whose row names an `answer` (queue/job-kinds.ts): a read-only chain answers in the progress comment. */
  | AnswerKind
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
    case "learn":
      return job.learn?.action === "list" ? "learnings" : "learn";
    default:
      // One job type per kind: its name.
      return job.kind;
  }
}

/**
 * Where a job reports, named by a key whose implementation is in jobs/job-surfaces.ts (one frame,
 * jobs/job-frame.ts, runs every job on its surface):
 * - `progress-comment`: 👀 and one comment on the issue or PR, edited to its terminal state (a
 *   "⏳ Queued behind …" comment becomes it);
 * - `check-run`: the `crewbot/review` check run on the head commit, no comment;
 * - `thread-reply`: a reply in the review thread the job answers, no comment;
 * - `reply`: one plain reply on the issue or PR when it ends (nothing shows while it runs);
 * - `silent`: nothing on GitHub: the queue's outcome, the log and the transcript.
 */
export type SurfaceKey = "progress-comment" | "check-run" | "thread-reply" | "reply" | "silent";

export interface JobTypeRow {
  /** Its worker writes to the checkout (and pushes): never on a stranger's code (jobs/checkout-trust.ts). */
  writes: boolean;
  /** Where it reports when a person started it. */
  surface: SurfaceKey;
  /** Where it reports when nothing a person did started it (an automatic review, a due learning); default `surface`. */
  automatic?: SurfaceKey;
}

/** Every answer kind's row: read-only, answering in its progress comment (jobs/answer-job.ts). */
const ANSWER_ROW: JobTypeRow = { writes: false, surface: "progress-comment" };

/** The job types with a job file of their own. */
export type OwnJobType = Exclude<JobType, AnswerKind>;

/** Every kind whose row names an `answer`, as a job type of its own. */
const answerRows = (): Record<string, JobTypeRow> => Object.fromEntries(JOB_KIND_NAMES.filter((kind) => jobAnswer(kind)).map((kind) => [kind, ANSWER_ROW]));

const JOB_TYPE_ROWS = {
  plan: { writes: false, surface: "progress-comment" },
  "implement-issue": { writes: true, surface: "progress-comment" },
  "implement-approved-plan": { writes: true, surface: "progress-comment" },
  "implement-pr-feedback": { writes: true, surface: "progress-comment" },
  "implement-fix-findings": { writes: true, surface: "progress-comment" },
  review: { writes: false, surface: "progress-comment", automatic: "check-run" },
  "review-thread-answer": { writes: false, surface: "thread-reply" },
  ...answerRows(),
  describe: { writes: false, surface: "progress-comment" },
  "ci-fix": { writes: true, surface: "progress-comment" },
  // The learnings pull request is written through the API from the default branch's file: no checkout at all.
  learn: { writes: false, surface: "progress-comment", automatic: "silent" },
  learnings: { writes: false, surface: "reply" },
} satisfies Record<OwnJobType, JobTypeRow> as Record<JobType, JobTypeRow>;

export const JOB_TYPES = Object.keys(JOB_TYPE_ROWS) as JobType[];

/** A job type the answer job runs (its kind's row names an `answer`). */
export const isAnswerType = (type: JobType): type is AnswerKind => jobAnswer(type) !== undefined;

export const writesCheckout = (type: JobType): boolean => JOB_TYPE_ROWS[type].writes;

/** Nothing a person did started it: a push's review, a learning that became due. */
const automatic = (job: Pick<JobRecord, "review" | "learn">): boolean => job.review?.automatic === true || job.learn?.automatic === true;

/** Where this job reports, by its type's row. */
export function surfaceKeyOf(job: Parameters<typeof jobTypeOf>[0]): SurfaceKey {
  const row = JOB_TYPE_ROWS[jobTypeOf(job)];
  return automatic(job) ? (row.automatic ?? row.surface) : row.surface;
}
