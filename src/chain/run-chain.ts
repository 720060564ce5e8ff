import type Anthropic from "@anthropic-ai/sdk";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { BudgetTracker } from "../agent/budget.js";
import type { BudgetName, EventSink, StopReason } from "../agent/events.js";
import { runAgent as defaultRunAgent } from "../agent/loop.js";
import type { AgentRunResult, RunAgentOptions } from "../agent/types.js";
import { summarizeArgs, toolsFor } from "../tools/index.js";
import type { Mode, SandboxInfo, ToolContext } from "../tools/types.js";
import { renderTask } from "./chains.js";
import { buildStepPrompt, type ContextSection } from "./prompt.js";
import type { AgentDefinition, ChainDefinition } from "./types.js";

/** A previous step's output above this size is handed over as a file, not inline. */
export const MAX_INLINE_PREVIOUS = 20 * 1024;

export const DEFAULT_MODEL = "claude-sonnet-5-5";

/** The agent that may write; every other agent runs read-only, in write chains too (DESIGN §1). */
export const WRITER_AGENT = "worker";

export interface ChainWorkspace {
  /** realpath of the checkout the agents work in. */
  root: string;
  artifactsDir: string;
  scratchDir: string;
}

export interface RunChainOptions {
  chain: ChainDefinition;
  agents: Map<string, AgentDefinition>;
  /** The user's request: `{task}` in the chain. */
  task: string;
  context?: ContextSection[];
  /** `plan` keeps every step read-only; `write` lets the worker write. */
  mode: Mode;
  workspace: ChainWorkspace;
  sandbox: SandboxInfo;
  network?: boolean;
  /** No bash for any agent (a fork's pull request: none of its code runs). */
  noBash?: boolean;
  envAllowlist?: Record<string, string>;
  budget: BudgetTracker;
  /** Model per agent name (config `models`), over the agent's own `model`. */
  models?: Record<string, string>;
  client: Anthropic;
  signal?: AbortSignal;
  emit?: EventSink;
  /** Work the job does between an agent's turns (e.g. the worker's commits); see RunAgentOptions. */
  betweenTurns?: (agent: string, index: number) => (() => Promise<void>) | undefined;
  /** Context for one step on top of `context`, e.g. the current diff for a reviewer after a worker. */
  stepContext?: (agent: string, index: number) => Promise<ContextSection[]>;
  /** Injected in tests. */
  runAgent?: (options: RunAgentOptions) => Promise<AgentRunResult>;
}

export interface StepResult extends AgentRunResult {
  index: number;
  agent: string;
  model: string;
  mode: Mode;
}

export interface ChainResult {
  ok: boolean;
  stopReason: StopReason;
  budget?: BudgetName;
  /** Set when a step failed: which one and why. */
  error?: string;
  steps: StepResult[];
  /** The last finished step's text (the plan, the review, the worker's report). */
  output: string;
}

export function stepMode(chainMode: Mode, agent: string): Mode {
  return chainMode === "write" && agent === WRITER_AGENT ? "write" : "plan";
}

/** A write chain is one that has a worker step; plan and review chains never write. */
export function chainMode(chain: ChainDefinition): Mode {
  return chain.steps.some((step) => step.agent === WRITER_AGENT) ? "write" : "plan";
}

/** Runs the steps in order, each agent's final text feeding the next; stops at the first failure. */
export async function runChain(options: RunChainOptions): Promise<ChainResult> {
  const { chain, agents, emit = () => {} } = options;
  const run = options.runAgent ?? defaultRunAgent;
  const steps: StepResult[] = [];
  let previous = "";
  emit({ type: "chain_start", chain: chain.name, steps: chain.steps.map((s) => s.agent) });

  for (const [index, step] of chain.steps.entries()) {
    const agent = agents.get(step.agent);
    if (!agent) {
      return failed(steps, previous, "error", `step ${index + 1}: unknown agent "${step.agent}" in ${chain.file}`);
    }
    emit({ type: "step_start", index, agent: agent.name });
    const mode = stepMode(options.mode, agent.name);
    const model = options.models?.[agent.name] ?? agent.model ?? DEFAULT_MODEL;
    const previousText = await handOver(previous, index, options.workspace.artifactsDir);
    const task = renderTask(step.task, { task: options.task, previous: previousText });
    const context = [...(options.context ?? []), ...((await options.stepContext?.(agent.name, index)) ?? [])];
    const result = await run({
      agent: agent.name,
      model,
      system: agent.prompt,
      prompt: buildStepPrompt(context, task),
      tools: stepTools(mode, agent, options, emit),
      toolContext: toolContext(mode, options),
      budget: options.budget,
      maxTurns: agent.maxTurns,
      client: options.client,
      signal: options.signal,
      emit,
      summarizeArgs,
      betweenTurns: options.betweenTurns?.(agent.name, index),
    });
    steps.push({ ...result, index, agent: agent.name, model, mode });
    emit({ type: "step_end", index, agent: agent.name, stopReason: result.stopReason, output: result.text });

    if (result.stopReason !== "done") {
      const reason = result.error ?? result.stopReason;
      return failed(steps, previous, result.stopReason, `step ${index + 1} (${agent.name}): ${reason}`, result.budget);
    }
    if (result.text.trim() === "") {
      return failed(steps, previous, "error", `step ${index + 1} (${agent.name}) gave no output`);
    }
    previous = result.text;
  }
  return { ok: true, stopReason: "done", steps, output: previous };
}

function failed(
  steps: StepResult[],
  output: string,
  stopReason: StopReason,
  error: string,
  budget?: BudgetName,
): ChainResult {
  return { ok: false, stopReason, budget, error, steps, output: steps.at(-1)?.text || output };
}

function stepTools(mode: Mode, agent: AgentDefinition, options: RunChainOptions, emit: EventSink) {
  const { tools, notes } = toolsFor(mode, { sandbox: options.sandbox, allow: agent.tools, noBash: options.noBash });
  for (const message of notes) emit({ type: "log", agent: agent.name, level: "warn", message });
  return tools;
}

function toolContext(mode: Mode, options: RunChainOptions): ToolContext {
  const { workspace } = options;
  return {
    root: workspace.root,
    mode,
    artifactsDir: workspace.artifactsDir,
    readRoots: [workspace.artifactsDir],
    scratchDir: workspace.scratchDir,
    // runAgent ties this to its own abort controller (caller's signal + wall-time budget).
    signal: options.signal ?? new AbortController().signal,
    sandbox: options.sandbox,
    network: options.network ?? false,
    envAllowlist: options.envAllowlist ?? {},
  };
}

/** Inline when small; otherwise a file in the artifacts dir (readable by `read`) and a pointer. */
async function handOver(previous: string, index: number, artifactsDir: string): Promise<string> {
  if (Buffer.byteLength(previous) <= MAX_INLINE_PREVIOUS) return previous;
  const file = path.join(artifactsDir, `step-${index}-input.md`);
  await writeFile(file, previous);
  const kb = Math.round(Buffer.byteLength(previous) / 1024);
  return `(The previous step's output is ${kb} KB, too long to include here. It is in the file ${file}; read it with the read tool.)`;
}
