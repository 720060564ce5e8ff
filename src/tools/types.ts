import type { z } from "zod";
import type { ProofSession } from "./proof-session.js";

/**
 * Whether agents may change the checkout: a chain's mode (`write` when it has a worker step) and,
 * from it, each step's. `read-only`: no edit or write tool, and bash, where offered, runs in the OS
 * sandbox on a read-only mount of the checkout. `write`: edit and write, and bash on a writable
 * mount; in a write chain only the worker step has it (chain/run-chain.ts `stepMode`).
 */
export type Mode = "read-only" | "write";

/**
 * Whose code a job's checkout holds: the repository's own (`trusted`), or a stranger's — a fork's
 * pull request — where nothing of it runs: no `bash`, no `setup` or `check` (DESIGN.md §4).
 * Decided once per job by `jobs/checkout-trust.ts`.
 */
export type CheckoutTrust = "trusted" | "stranger";

/** Whether commands can run inside bubblewrap on this machine (if not, why), and the operator's policy. */
export interface SandboxInfo {
  available: boolean;
  /** Set when not available: shown in the run's log. */
  reason?: string;
  /** The bubblewrap program that passed the probe. */
  program?: string;
  /** Whether "network on" can be had: an egress-only namespace of the sandbox's own (slirp4netns). */
  network?: { available: boolean; reason?: string };
  /** `CREWBOT_ALLOW_UNSANDBOXED=1`: the operator lets commands run without bubblewrap (trusted repositories only). */
  allowUnsandboxed?: boolean;
  /** `CREWBOT_SANDBOX_ALLOW_CIDRS`: internal destinations "network on" may reach. */
  allowCidrs?: string[];
}

export interface ToolContext {
  /** realpath of the checkout; every path the model names is resolved inside it. */
  root: string;
  mode: Mode;
  /** Where outputs too large for the model go; readable (read-only) by the tools. */
  artifactsDir: string;
  /** Extra roots that absolute paths may point into, read-only (the artifacts dir). */
  readRoots: string[];
  /** A scratch HOME for bash, outside the checkout. */
  scratchDir: string;
  signal: AbortSignal;
  sandbox: SandboxInfo;
  /** Sandbox network on (config `sandbox.network`); off by default. */
  network: boolean;
  /** Variables the operator allows into bash (config allowlist); nothing else leaks in. */
  envAllowlist: Record<string, string>;
  /** The job's handling of `complete_step` (tick, commit); its answer goes back to the model. */
  completeStep?: (step: number, note?: string) => Promise<string>;
  /** The repository's skills (default branch), for the `skill` tool. */
  skills?: readonly Skill[];
  /** The job's `local://` scratch space (outside the checkout, shared by the job's agents). */
  localDir?: string;
  /** How many `ask_user` questions the job has asked so far (the tool refuses past its cap). */
  questionsAsked?: number;
  /** A review's proofs (`prove`): the merge base, the budget, the proofs run; absent where proofs may not run. */
  proof?: ProofSession;
}

/** A repository skill (`chain/skills.ts` reads them from the default branch): what the `skill` tool offers. */
export interface Skill {
  name: string;
  description: string;
  /** The SKILL.md body: what the `skill` tool returns. */
  body: string;
  /** realpath of the skill's directory (its other files are readable there). */
  dir: string;
  /** Repository-relative path of the SKILL.md, for notes. */
  file: string;
  /** Absolute paths of the skill's other files, sorted. */
  files: string[];
}

export interface ToolResult {
  output: string;
  isError: boolean;
  /** Paths (relative to the checkout) the tool read or changed, for compaction summaries. */
  filesRead?: string[];
  filesChanged?: string[];
  /** Set by a result tool (`submit_plan`, `submit_review`): the agent ends with this as its result. */
  final?: Submission;
  /** Set by `ask_user`: the agent pauses here until the requester answers. */
  question?: AgentQuestion;
}

/** A question to the requester; its answer becomes the tool call's result when the agent resumes. */
export interface AgentQuestion {
  question: string;
  options: string[];
}

/** An agent's result handed over through a tool: its name, the validated input, and the same as markdown. */
export interface Submission {
  /** A result tool's name (`ResultToolName` in tools/registry.ts, which imports every tool, so not named here). */
  tool: string;
  value: unknown;
  /** The result as text: the step's output for `{previous}`, the transcript and the text parsers. */
  text: string;
}

/**
 * What a finished step left: its final text and, when it called one, its result tool's hand-over
 * (DESIGN §3). Reading it as a plan, a review, … is the job's (plan/plan-result.ts,
 * review/review-result.ts, jobs/step-results.ts); the chain only passes it on.
 */
export interface StepOutput {
  text: string;
  submission?: Submission;
}

export interface Tool<I = any> {
  /** Its key in tools/registry.ts (`ToolName`; test/tools/registry.test.ts holds them equal): a string here, as the registry imports every tool. */
  name: string;
  description: string;
  /** zod schema of the input; also the source of the JSON schema the model sees. */
  schema: z.ZodType<I>;
  /** Read-only tools may run concurrently with each other. */
  readOnly: boolean;
  run(input: I, ctx: ToolContext): Promise<ToolResult>;
}

/** An error meant for the model: becomes an error tool_result, the loop goes on. */
export class ToolError extends Error {
  override name = "ToolError";
}
