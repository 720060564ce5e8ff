import type { JobContext, JobResult } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import { runAskJob } from "./ask-job.js";
import { runCiFixJob } from "./ci-fix-job.js";
import { runDescribeJob } from "./describe-job.js";
import { runFixFindingsJob } from "./fix-findings-job.js";
import { runImplementJob } from "./implement-job.js";
import { runLearnJob, runLearningsListJob } from "./learn-job.js";
import { jobTypeOf, type JobType } from "./job-types.js";
import { runPlanJob } from "./plan-job.js";
import { runFeedbackJob } from "./pr-feedback-job.js";
import { runReviewJob } from "./review-job.js";
import type { JobServices } from "./services.js";
import { runThreadAnswer } from "./thread-answer-job.js";

type RunJob = (job: JobRecord, ctx: JobContext, services: JobServices) => Promise<JobResult>;

/** One file per job: a new job type is a new row here (and a new file beside this one). */
const JOBS: Record<JobType, RunJob> = {
  plan: runPlanJob,
  "implement-issue": runImplementJob,
  "implement-approved-plan": runImplementJob,
  "implement-pr-feedback": runFeedbackJob,
  "implement-fix-findings": runFixFindingsJob,
  review: runReviewJob,
  "review-thread-answer": runThreadAnswer,
  ask: runAskJob,
  describe: runDescribeJob,
  "ci-fix": runCiFixJob,
  learn: runLearnJob,
  learnings: runLearningsListJob,
};

export const runJob: RunJob = (job, ctx, services) => JOBS[jobTypeOf(job)](job, ctx, services);
