import type { Usage } from "../agent/pricing.js";
import type { PlanStep } from "../plan/types.js";
import type { JobKind } from "../queue/types.js";
import type { CommandSummary } from "./render-commands.js";

/** How a job ended; the first line of its final comment starts with the matching sign. */
export type Terminal =
  | { kind: "done" } // ✅ Done
  | { kind: "failed"; reason: string } // ❌ Failed: <reason>
  | { kind: "cancelled"; by?: string; reason?: string } // ⏹ Cancelled[ by @x][: reason]
  | { kind: "stopped"; budget: string }; // ⏸ Stopped: <budget>

/** Everything the progress comment shows; rendering is a pure function of it. */
export interface ProgressState {
  jobId: string;
  kind: JobKind;
  /** Waiting behind another job on the same issue/PR. */
  queuedBehind?: string;
  /** The running agent and its place in the chain. */
  agent?: string;
  /** `index` is 1-based (shown as `step 1/2`); 0 until the first step starts. */
  step?: { index: number; total: number };
  /** Model turns and tool calls so far in the whole job (all agents), as the job's budgets count. */
  turn: number;
  toolCalls: number;
  /** Short summary of the latest tool call, e.g. `read src/a.ts`. */
  lastTool?: string;
  elapsedMs: number;
  usage: Usage;
  costUsd: number;
  estimate: boolean;
  plan?: {
    goal?: string;
    steps: PlanStep[];
    done: number[];
    risks?: string;
    /** The commit each finished step became (`/implement`), linked on its ticked line. */
    commits?: Record<number, { sha: string; url: string }>;
  };
  links: {
    transcript?: string;
    branch?: { name: string; url: string };
    pr?: { number: number; url: string };
  };
  terminal?: Terminal;
  /** A finished `/ask`: the answer, its citations already permalinks (report/render-answer.ts). */
  answer?: string;
  /** A finished /plan: end with the approval checkbox. */
  approvable?: boolean;
  /** The repository's setup and check commands run so far, with their results. */
  commands?: CommandSummary[];
  /** A monthly spend cap at 80 % or more (installations/spend-caps.ts), shown under the status line. */
  spendNotice?: string;
  /** Short lines worth telling (a step refused, bash unavailable, …). */
  notes?: string[];
  /** A job started by a label rather than a command: who added which label. */
  startedBy?: { login: string; label: string };
  /** Set while the job waits for its requester's answer to a question (`ask_user`). */
  waitingFor?: { login: string };
  /** Set while a model request waits to be retried (overloaded, rate-limited); cleared when the model answers. */
  modelWait?: { reason: string; attempt: number; waitMs: number };
}

export const jobMarker = (jobId: string) => `<!-- crewbot:job:${jobId} -->`;
