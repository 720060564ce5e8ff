import type { Submission } from "../tools/types.js";
import type { Usage } from "./pricing.js";

/** `waiting`: the agent asked the requester (`ask_user`) and pauses until the answer (AgentRunResult.paused). */
export type StopReason = "done" | "budget" | "aborted" | "error" | "waiting";
export type BudgetName = "maxTurns" | "maxOutputTokens" | "maxCostUsd" | "maxMinutes";

/** What the agent loop and chain runner tell the reporter (progress comment, CLI lines, transcript). */
export type AgentEvent = (
  | { type: "chain_start"; chain: string; steps: string[] }
  /** `items`: a parallel step's agents and tasks (one line each), in order; their events carry `item`. */
  /** `role`: a single agent's role (agent/roles.ts), so observers act on what a step is, not on its agent's name. */
  | { type: "step_start"; index: number; agent: string; role?: string; items?: Array<{ agent: string; task: string }> }
  | { type: "step_end"; index: number; agent: string; role?: string; stopReason: StopReason; output?: string; submission?: Submission }
  | { type: "run_start"; agent: string; model: string; tools: string[] }
  | { type: "run_end"; agent: string; stopReason: StopReason; budget?: BudgetName; error?: string }
  | { type: "turn_start"; agent: string; turn: number }
  | { type: "turn_end"; agent: string; turn: number; stopReason: string | null }
  | { type: "tool_start"; agent: string; id: string; name: string; args: string }
  | { type: "tool_end"; agent: string; id: string; name: string; ok: boolean; ms: number; output: string }
  | { type: "text"; agent: string; text: string }
  | { type: "usage"; agent: string; usage: Usage; costUsd: number; estimate: boolean }
  | { type: "compaction"; agent: string; kind: "prune" | "summary"; beforeTokens: number }
  /** A model request failed in a way worth retrying; the run waits `waitMs` before attempt `attempt + 1`. */
  | { type: "model_wait"; agent: string; attempt: number; waitMs: number; reason: string }
  /** A stream rule matched the reply as it streamed: it was dropped (`droppedTokens` of output, estimated, at `costUsd`) and the rule injected. */
  | { type: "rule_interrupt"; agent: string; turn: number; rule: string; droppedTokens: number; costUsd: number }
  | { type: "log"; agent?: string; level: "info" | "warn"; message: string }
) & {
  /** Set on the events of a parallel step's agents: which of the step's items (1-based) emitted it. */
  item?: number;
};

export type EventSink = (event: AgentEvent) => void;
