/**
 * A job that asked its requester a question: posting the question and saving what the job needs
 * to go on (the paused chain, the commit, the budget used), and, on its next claim, whether it
 * goes on with the answer, waits on, or ends because no answer came in time.
 */
import { BudgetTracker, type Budgets } from "../agent/budget.js";
import type { Usage } from "../agent/pricing.js";
import type { ChainPause, ChainResult, RunChainOptions } from "../chain/run-chain.js";
import type { JobResult, WaitingResult } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import { NO_ANSWER_OUTCOME, waitingOutcome, type JobWait } from "../queue/wait.js";
import { renderAnswered, renderQuestion } from "../report/render-question.js";
import { answerResultText } from "../tools/ask-user.js";
import type { JobPolicy } from "./job-policy.js";
import type { JobReport } from "./job-report.js";

/** What a waiting job saves to go on with on any worker. */
export interface SavedRun {
  chain: ChainPause;
  /** The commit checked out: the resumed job checks out exactly this one. */
  sha: string;
  budget: { turns: number; usage: Usage; costUsd: number; estimate: boolean; elapsedMs: number };
  /** Questions asked so far in the job, this one included. */
  questionsAsked: number;
}

export type NextRun =
  | { kind: "fresh" }
  | { kind: "resume"; saved: SavedRun; resume: NonNullable<RunChainOptions["resume"]> }
  /** Claimed before its wait ran out without an answer: it goes back to waiting. */
  | { kind: "still-waiting"; wait: JobWait }
  | { kind: "no-answer" };

export function nextRun(job: JobRecord, now = Date.now()): NextRun {
  const wait = job.wait;
  if (!wait) return { kind: "fresh" };
  if (!wait.answer) return now >= wait.expiresAt ? { kind: "no-answer" } : { kind: "still-waiting", wait };
  const saved = wait.resume as SavedRun;
  return { kind: "resume", saved, resume: { pause: saved.chain, answer: answerResultText(wait.answer) } };
}

/** The chain options of this run: `ask_user` when the job's policy allows it, where to go on from, and the budget used so far. */
export function askOptions(policy: Pick<JobPolicy, "questions" | "budgets">, next: NextRun): Pick<RunChainOptions, "questions" | "resume"> & { budget?: BudgetTracker } {
  const asked = next.kind === "resume" ? next.saved.questionsAsked : 0;
  const budget = resumedBudget(policy.budgets, next);
  return {
    ...(policy.questions.allowed ? { questions: { asked } } : {}),
    ...(next.kind === "resume" ? { resume: next.resume } : {}),
    ...(budget ? { budget } : {}),
  };
}

/** The budget a resumed job goes on with: what it used before the question; the wait itself costs no time. */
function resumedBudget(limits: Budgets, next: NextRun): BudgetTracker | undefined {
  if (next.kind !== "resume") return undefined;
  const used = next.saved.budget;
  let first = true;
  // startedAt is read from the clock once, at construction: set it back by the time already worked.
  const budget = new BudgetTracker(limits, () => {
    const now = Date.now();
    if (!first) return now;
    first = false;
    return now - used.elapsedMs;
  });
  budget.turns = used.turns;
  budget.usage = used.usage;
  budget.costUsd = used.costUsd;
  budget.estimate = used.estimate;
  return budget;
}

/**
 * A resumed run's start: its comment's figures go on from the run before the question (the
 * installation's record of the job's cost is replaced by each run's total), and the question
 * comment shows the answer with no boxes left to tick. That edit is not awaited (logged on
 * failure): the writer keeps it after the job's own first edit, so the agent does not wait for it.
 */
export function beginResume(job: JobRecord, report: JobReport, next: NextRun, log: { warn(message: string): void }): void {
  const wait = job.wait;
  if (next.kind !== "resume" || !wait?.answer) return;
  const { usage, costUsd, estimate } = next.saved.budget;
  report.set({ usage, costUsd, estimate });
  if (wait.commentId === undefined) return;
  const view = { jobId: job.id, asker: wait.asker, agent: "", question: wait.question, options: wait.options, expiresAt: wait.expiresAt };
  const { owner, repo } = job.target;
  report.writer
    .write("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", { owner, repo, comment_id: wait.commentId, body: renderAnswered(view, wait.answer) })
    .catch((error: unknown) => log.warn(`job ${job.id}: could not mark the question answered: ${error instanceof Error ? error.message : String(error)}`));
}

/** Ends a job whose question went unanswered, or sends it back to wait. */
export async function endWait(job: JobRecord, report: JobReport, next: Extract<NextRun, { kind: "no-answer" | "still-waiting" }>): Promise<JobResult> {
  if (next.kind === "still-waiting") {
    await report.pause({ waitingFor: { login: next.wait.asker } });
    return { state: "waiting", wait: { ...next.wait }, outcome: waitingOutcome(next.wait.asker) };
  }
  return report.finish({ terminal: { kind: "stopped", budget: NO_ANSWER_OUTCOME.replace(/^⏸ Stopped: /, "") } });
}

/** Posts the question (one comment mentioning the requester), shows the wait in the progress comment, and saves the run. */
export async function askRequester(
  job: JobRecord,
  report: JobReport,
  policy: Pick<JobPolicy, "questions">,
  run: { result: ChainResult; budget: BudgetTracker; sha: string; questionsAsked: number },
): Promise<WaitingResult> {
  const pause = run.result.paused!;
  const { question, options } = pause.agentPause.question;
  const asker = job.trigger.sender;
  const askedAt = Date.now();
  const expiresAt = askedAt + Math.round(policy.questions.timeoutHours * 3_600_000);
  const { owner, repo, number } = job.target;
  const body = renderQuestion({ jobId: job.id, asker, agent: pause.agent, question, options, expiresAt });
  const posted = await report.writer.write<{ id: number }>("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { owner, repo, issue_number: number, body });
  const { budget } = run;
  const saved: SavedRun = {
    chain: pause,
    sha: run.sha,
    budget: { turns: budget.turns, usage: budget.usage, costUsd: budget.costUsd, estimate: budget.estimate, elapsedMs: budget.elapsedMs() },
    questionsAsked: run.questionsAsked + 1,
  };
  await report.pause({ waitingFor: { login: asker } });
  const wait: JobWait = { question, options, asker, commentId: posted.data.id, askedAt, expiresAt, resume: saved };
  return { state: "waiting", wait, outcome: waitingOutcome(asker) };
}
