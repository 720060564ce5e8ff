/**
 * When a run stops, decided from what the loop knows at three points: before a request (aborted,
 * a budget spent, the agent's own turns used), after a reply (answered, cut off, refused, or tool
 * calls to run) and after the reply's tool calls (a hand-over, a question, or on). Pure: the loop
 * carries the decision out.
 */
import type { Submission } from "../tools/types.js";
import { describeBudget, type Budgets } from "./budget.js";
import type { BudgetName, StopReason } from "./events.js";
import type { StopCause } from "./run-signal.js";
import type { ToolCallResult } from "./tool-calls.js";

/** How a run ends: its stop reason, which budget ran out, and the words for it. */
export interface Stop {
  stopReason: StopReason;
  budget?: BudgetName;
  error?: string;
}

/** How many times in a row a reply cut off by max_tokens is continued before we keep the partial text. */
export const MAX_CONTINUATIONS = 3;

export const REFUSAL_ERROR = "the model declined to continue (refusal)";

/** The end of a run its signal stopped: an abort from outside, or the time budget. */
export function stopOfCause(cause: StopCause, limits: Budgets): Stop {
  return cause === "aborted"
    ? { stopReason: "aborted", error: "aborted" }
    : { stopReason: "budget", budget: "maxMinutes", error: describeBudget("maxMinutes", limits) };
}

export interface BeforeRequest {
  agent: string;
  /** Set when the run's signal fired: why. */
  stopped?: StopCause;
  /** The job's first budget used up, if any. */
  exceeded?: BudgetName;
  limits: Budgets;
  /** The agent's turns so far, and its own cap (frontmatter `maxTurns`). */
  turns: number;
  maxTurns?: number;
}

/** The end to take before a request, if the run may not make one. */
export function stopBeforeRequest(run: BeforeRequest): Stop | undefined {
  if (run.stopped) return stopOfCause(run.stopped, run.limits);
  if (run.exceeded) return { stopReason: "budget", budget: run.exceeded, error: describeBudget(run.exceeded, run.limits) };
  if (run.maxTurns !== undefined && run.turns >= run.maxTurns) {
    const limits = { ...run.limits, maxTurns: run.maxTurns };
    return { stopReason: "budget", budget: "maxTurns", error: `${describeBudget("maxTurns", limits)} for agent ${run.agent}` };
  }
  return undefined;
}

/** A reply the output limit (or the full context window) cut off. */
export const isCutOff = (stopReason: string | null): boolean => stopReason === "max_tokens" || stopReason === "model_context_window_exceeded";

export type AfterReply =
  /** Cut off mid-answer: ask for the rest. */
  | { next: "continue" }
  /** Tool calls to run. */
  | { next: "tools" }
  | { next: "stop"; stop: Stop };

/** What follows a reply: its tool calls, a continuation of a cut-off answer, or the end (after MAX_CONTINUATIONS, what we have). */
export function afterReply(reply: { toolCalls: number; stopReason: string | null; continuations: number }): AfterReply {
  if (reply.toolCalls > 0) return { next: "tools" };
  if (isCutOff(reply.stopReason) && reply.continuations < MAX_CONTINUATIONS) return { next: "continue" };
  if (reply.stopReason === "refusal") return { next: "stop", stop: { stopReason: "error", error: REFUSAL_ERROR } };
  return { next: "stop", stop: { stopReason: "done" } };
}

export type AfterToolCalls =
  /** A result tool ended the agent with its hand-over. */
  | { next: "submitted"; submission: Submission }
  /** `ask_user` put a question: the run pauses at this call. */
  | { next: "question"; asked: ToolCallResult }
  /** The results go to the model. */
  | { next: "continue" };

/** What follows a reply's tool calls: a hand-over wins over a question, and both over going on. */
export function afterToolCalls(results: ToolCallResult[]): AfterToolCalls {
  const submission = results.find((r) => r.final)?.final;
  if (submission) return { next: "submitted", submission };
  const asked = results.find((r) => r.question);
  if (asked) return { next: "question", asked };
  return { next: "continue" };
}
