/**
 * Carries out an answer to a waiting question (a tick or `/answer`): the queue takes it once and the
 * runner claims the job again at once (and rewrites the question comment without boxes, saying who
 * answered: see question-wait.ts). An answer to nothing gets a short reply (`/answer`) or a log line (a tick).
 */
import type { JobQueue } from "../queue/job-queue.js";
import type { JobRunner } from "../queue/runner.js";
import { targetKey, type JobRecord } from "../queue/types.js";
import type { ReportTarget } from "../report/progress-reporter.js";
import type { Background } from "./background.js";
import type { Decision } from "./comment-command.js";
import type { TriggerLog } from "./deps.js";

export interface AnswerDeps {
  queue: JobQueue;
  runner: Pick<JobRunner, "answer">;
  background: Background;
  log: TriggerLog;
}

export const NOTHING_TO_ANSWER = "There is no crewbot question waiting for an answer here.";

/** The job waiting on this target for an answer (the ticked comment's, or the only one). */
async function waitingJob(deps: AnswerDeps, target: ReportTarget, jobId?: string): Promise<JobRecord | undefined> {
  const key = targetKey(target);
  const candidates = jobId ? [await deps.queue.get(jobId)] : await deps.queue.activeOn(key);
  return candidates.find((j) => j && j.state === "queued" && j.wait && !j.wait.answer && targetKey(j.target) === key);
}

export async function answerQuestion(
  deps: AnswerDeps,
  decision: Extract<Decision, { action: "answer" }>,
  target: ReportTarget,
  reply: (body: string, what: string) => void,
): Promise<void> {
  const job = await waitingJob(deps, target, decision.jobId);
  const wait = job?.wait;
  const tick = decision.option !== undefined;
  if (!job || !wait || (tick && decision.option! > wait.options.length)) {
    deps.log.info({ jobId: decision.jobId, by: decision.by, ...target }, "answer to no waiting question: nothing resumed");
    return tick ? undefined : reply(NOTHING_TO_ANSWER, "nothing to answer");
  }
  const text = tick ? wait.options[decision.option! - 1]! : decision.text ?? "";
  const answer = { by: decision.by, text, at: Date.now(), ...(tick ? { option: decision.option } : {}) };
  // The resumed job rewrites the question comment, after its own first edit: the installation's
  // writes are spaced about a second apart, and the agent should not wait for that one.
  const answered = await deps.runner.answer(job.id, answer);
  if (!answered) {
    deps.log.info({ jobId: job.id, by: decision.by }, "question already answered: nothing resumed");
    return tick ? undefined : reply(NOTHING_TO_ANSWER, "already answered");
  }
}
