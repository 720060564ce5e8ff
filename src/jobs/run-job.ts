import type { JobContext, JobResult } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import { runAnswerJob } from "./answer-job.js";
import { runCiFixJob } from "./ci-fix-job.js";
import { runDescribeJob } from "./describe-job.js";
import { runFixFindingsJob } from "./fix-findings-job.js";
import { runImplementJob } from "./implement-job.js";
import { runLearnJob, runLearningsListJob } from "./learn-job.js";
import { isAnswerType, jobTypeOf, type OwnJobType } from "./job-types.js";
import { runPlanJob } from "./plan-job.js";
import { runFeedbackJob } from "./pr-feedback-job.js";
import { runReviewJob } from "./review-job.js";
import type { JobServices } from "./services.js";
import { runThreadAnswer } from "./thread-answer-job.js";

type RunJob = (job: JobRecord, ctx: JobContext, services: JobServices) => Promise<JobResult>;

/**
 * One file per job: a new job type is a new row here (and a new file beside this one). A kind
 * whose row names an `answer` (queue/job-kinds.ts) needs neither: the answer job runs it.
 */
const JOBS: Record<OwnJobType, RunJob> = {
  plan: runPlanJob,
  "implement-issue": runImplementJob,
  "implement-approved-plan": runImplementJob,
  "implement-pr-feedback": runFeedbackJob,
  "implement-fix-findings": runFixFindingsJob,
  review: runReviewJob,
  "review-thread-answer": runThreadAnswer,
  describe: runDescribeJob,
  "ci-fix": runCiFixJob,
  learn: runLearnJob,
  learnings: runLearningsListJob,
};

export const runJob: RunJob = (job, ctx, services) => {
  const type = jobTypeOf(job);
  return isAnswerType(type) ? runAnswerJob(job, ctx, services) : JOBS[type](job, ctx, services);
};
