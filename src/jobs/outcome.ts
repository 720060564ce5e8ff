import { describeBudget, type Budgets } from "../agent/budget.js";
import type { ChainResult } from "../chain/run-chain.js";
import { ConfigError } from "../config/validate.js";
import { cleanText } from "../text/clean-text.js";
import type { JobRecord } from "../queue/types.js";
import type { ProgressState, Terminal } from "../report/types.js";

/** How a job ends, for its terminal edit. */
export type Ending = { terminal: Terminal; patch?: Partial<ProgressState> };

/** The request is the task; when it is empty, the issue itself is (`<verb> issue #n`). */
export function jobTask(job: JobRecord, verb: string): string {
  const request = cleanText(job.trigger.request).trim();
  const noun = job.target.isPullRequest ? "pull request" : "issue";
  const what = `${verb} ${noun} #${job.target.number} (its text is in the context).`;
  return request ? `${request}\n\n(${what})` : what;
}

/** An exception or an abort, as the comment should tell it. */
export function failure(error: unknown, signal: AbortSignal): Ending {
  const reason = signal.aborted ? (signal.reason as { kind?: string; by?: string } | undefined) : undefined;
  if (reason?.kind === "cancelled") return { terminal: { kind: "cancelled", by: reason.by } };
  if (reason?.kind === "superseded") return { terminal: { kind: "cancelled", reason: `a newer review took over (job ${reason.by})` } };
  if (reason?.kind === "shutdown") return { terminal: { kind: "failed", reason: "interrupted (crewbot was stopped)" } };
  // One comment names the file and every bad key; nothing runs on a guess.
  if (error instanceof ConfigError) {
    return { terminal: { kind: "failed", reason: `${error.file} is invalid; fix it on the default branch and write the command again` }, patch: { notes: error.problems } };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { terminal: { kind: "failed", reason: message.split("\n")[0]!.slice(0, 300) } };
}


/** A chain that did not finish, as the comment tells it; undefined when it finished. */
export function chainFailure(result: ChainResult, signal: AbortSignal, limits: Budgets): Ending | undefined {
  if (result.stopReason === "aborted") return failure(new Error("aborted"), signal);
  if (result.stopReason === "budget" && result.budget) {
    // Names the budget that stopped it: the job's, or one agent's own turn cap.
    return { terminal: { kind: "stopped", budget: result.budgetReason ?? describeBudget(result.budget, limits) } };
  }
  if (!result.ok) return { terminal: { kind: "failed", reason: result.error ?? result.stopReason } };
  return undefined;
}
