import type Anthropic from "@anthropic-ai/sdk";
import type { AgentQuestion, Submission, Tool, ToolContext } from "../tools/types.js";
import type { ArgsSummarizer } from "./args.js";
import type { BudgetTracker } from "./budget.js";
import type { BudgetName, EventSink, StopReason } from "./events.js";
import type { Usage } from "./pricing.js";
import type { ModelRetryPolicy } from "./retry.js";

export interface RunAgentOptions {
  /** The agent's name, for events and logs. */
  agent: string;
  model: string;
  /** The system prompt: byte-stable across turns (no timestamps), so it stays cached. */
  system: string;
  /** The first user message: context (marked as data) and the task. */
  prompt: string;
  tools: Tool[];
  toolContext: ToolContext;
  /** Shared by all agents of the job. */
  budget: BudgetTracker;
  /** This agent's own cap (frontmatter `maxTurns`). */
  maxTurns?: number;
  /** max_tokens per reply before the output budget clamps it; default 16384. */
  maxTokensPerReply?: number;
  client: Anthropic;
  signal?: AbortSignal;
  emit?: EventSink;
  /** Context-window reserve kept free before compaction; default 16k tokens. */
  reserveTokens?: number;
  /** Override of the model's context window (tests use small ones). */
  contextWindow?: number;
  /** The job's own work that must not race the agent's tools, e.g. committing finished steps. */
  betweenTurns?: BetweenTurns;
  /** One-line summary of a tool call's arguments for events; default: a generic one (src/agent/args.ts). */
  summarizeArgs?: ArgsSummarizer;
  /** Extended thinking's token budget per reply (frontmatter `thinking`, at least 1024); unset: no thinking. */
  thinking?: number;
  /** Retries of failed model requests; default: the client's policy (provider.ts). */
  retry?: ModelRetryPolicy;
  /** The job's stream rules (src/chain/rules.ts): watched on every streamed reply of this agent. */
  rules?: StreamRules;
  /** Goes on from a pause (`ask_user`): the saved conversation, with the answer among the results; no earlier turn runs again. */
  resume?: AgentResume;
}

/** Where a paused agent stopped: enough to go on with the answer on any worker. */
export interface AgentPause {
  question: AgentQuestion;
  /** The `ask_user` call the answer is the result of. */
  toolUseId: string;
  /** The conversation so far, ending with the reply that asked. */
  messages: Anthropic.MessageParam[];
  /** The reply's tool results in the calls' order; the asking call's is replaced by the answer on resume. */
  results: Anthropic.ToolResultBlockParam[];
  /** The agent's turns so far (its own `maxTurns` counts across the pause). */
  turns: number;
  filesRead: string[];
  filesChanged: string[];
}

export interface AgentResume {
  pause: AgentPause;
  /** The answer as the `ask_user` call's result (see answerResultText). */
  answer: string;
}

/** Stream rules as the loop uses them; the state (what fired when) is the job's, shared by its agents. */
export interface StreamRules {
  /** A watcher for one reply of `agent` (see ModelCall.watch), or undefined when no rule is armed. */
  watch(agent: string): { reset(): void; see(block: number, delta: string): unknown } | undefined;
  /** Records that the rule a watcher returned fired; gives its name and the interrupt message. */
  fire(rule: unknown): { name: string; message: string };
  /** A reply arrived whole. */
  turnCompleted(): void;
}

/** Awaited after each reply arrives, before its tool calls run (so after the previous reply's tools). */
export type BetweenTurns = () => Promise<void>;

export interface AgentRunResult {
  stopReason: StopReason;
  budget?: BudgetName;
  /** `provider error: …`, `aborted`, or the budget's description. */
  error?: string;
  /** The final assistant text (the step's output). */
  text: string;
  turns: number;
  usage: Usage;
  costUsd: number;
  estimate: boolean;
  filesRead: string[];
  filesChanged: string[];
  /** The result handed over through submit_plan / submit_review, when the agent called one. */
  submission?: Submission;
  /** Set with stopReason `waiting`: where to go on from once the question is answered. */
  paused?: AgentPause;
}
