/**
 * Agent events → the progress comment's state. `foldEvent` is pure; `progressFromEvents` adds the
 * clock for elapsed time, so a job runner can write `emit = (e) => reporter.update(progress.apply(e))`.
 */
import type { AgentEvent } from "../agent/events.js";
import { addUsage, emptyUsage } from "../agent/pricing.js";
import type { JobKind } from "../queue/types.js";
import type { Clock } from "./github-writer.js";
import type { ProgressState } from "./types.js";

/** Warnings kept for the comment; the transcript has all of them. */
const MAX_NOTES = 10;

export function initialProgress(jobId: string, kind: JobKind, extra: Partial<ProgressState> = {}): ProgressState {
  return {
    jobId,
    kind,
    turn: 0,
    toolCalls: 0,
    elapsedMs: 0,
    usage: emptyUsage(),
    costUsd: 0,
    estimate: false,
    links: {},
    ...extra,
  };
}

/** Agent names have no spaces, so " + " only appears where a parallel step joined its agents. */
function isParallelLine(agent: string | undefined): boolean {
  return agent?.includes(" + ") ?? false;
}

export function foldEvent(state: ProgressState, event: AgentEvent): ProgressState {
  switch (event.type) {
    case "chain_start":
      return { ...state, step: { index: 0, total: event.steps.length } };
    case "step_start":
      return {
        ...state,
        agent: event.agent,
        step: { index: event.index + 1, total: Math.max(state.step?.total ?? 0, event.index + 1) },
        lastTool: undefined,
      };
    case "run_start":
      // A parallel step's agents stay on one line ("scout + scout"): one agent's start does not replace it.
      return isParallelLine(state.agent) ? state : { ...state, agent: event.agent };
    case "turn_start":
      return { ...state, turn: state.turn + 1 };
    case "tool_start":
      return { ...state, toolCalls: state.toolCalls + 1, lastTool: `${event.name} ${event.args}`.trim() };
    case "usage":
      return {
        ...state,
        modelWait: undefined,
        usage: addUsage(state.usage, event.usage),
        costUsd: state.costUsd + event.costUsd,
        estimate: state.estimate || event.estimate,
      };
    case "model_wait":
      return { ...state, modelWait: { reason: event.reason, attempt: event.attempt, waitMs: event.waitMs } };
    case "text":
    case "turn_end":
    case "run_end":
      // The model answers again: no longer waiting.
      return state.modelWait ? { ...state, modelWait: undefined } : state;
    case "log": {
      if (event.level !== "warn") return state;
      const note = event.agent ? `${event.agent}: ${event.message}` : event.message;
      const notes = state.notes ?? [];
      if (notes.includes(note) || notes.length >= MAX_NOTES) return state;
      return { ...state, notes: [...notes, note] };
    }
    default:
      return state;
  }
}

export interface ProgressTracker {
  /** The state so far, with `elapsedMs` as of now. */
  readonly state: ProgressState;
  apply(event: AgentEvent): ProgressState;
  /** For what events do not carry: the plan, ticks, links, the terminal state. */
  set(patch: Partial<ProgressState>): ProgressState;
}

export function progressFromEvents(
  initial: ProgressState,
  options: { clock?: Pick<Clock, "now">; startedAt?: number } = {},
): ProgressTracker {
  const clock = options.clock;
  const now = clock ? () => clock.now() : () => Date.now();
  const startedAt = options.startedAt ?? now() - initial.elapsedMs;
  let current = initial;
  const stamped = () => (current = { ...current, elapsedMs: Math.max(0, now() - startedAt) });
  return {
    get state() {
      return stamped();
    },
    apply(event) {
      current = foldEvent(current, event);
      return stamped();
    },
    set(patch) {
      current = { ...current, ...patch };
      return stamped();
    },
  };
}
