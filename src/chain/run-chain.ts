import type Anthropic from "@anthropic-ai/sdk";
import { mkdir, realpath, writeFile } from "node:fs/promises";
import path from "node:path";
import type { BudgetTracker } from "../agent/budget.js";
import type { BudgetName, EventSink, StopReason } from "../agent/events.js";
import { runAgent as defaultRunAgent } from "../agent/loop.js";
import type { AgentPause, AgentRunResult, RunAgentOptions, StreamRules } from "../agent/types.js";
import { summarizeArgs, toolsFor } from "../tools/index.js";
import type { ProofSession } from "../tools/proof-session.js";
import type { CheckoutTrust, Mode, SandboxInfo, Skill, StepOutput, Tool, ToolContext } from "../tools/types.js";
import { describeBudget } from "../agent/budget.js";
import { oneLine } from "../tools/index.js";
import { outputsNamed, PARALLEL_AT_ONCE, renderTask, stepAgents } from "./chains.js";
import { buildStepPrompt, type ContextSection } from "../text/prompt.js";
import { roleOf, ROLES, roleTools, type RoleName } from "../agent/roles.js";
import { skillsContext } from "./skills.js";
import { systemPromptFor } from "./system-prompt.js";
import type { AgentDefinition, ChainDefinition, ChainStep } from "./types.js";

/** A previous step's output above this size is handed over as a file, not inline. */
export const MAX_INLINE_PREVIOUS = 20 * 1024;

export const DEFAULT_MODEL = "claude-sonnet-5-5";

/** How the progress comment and events name a parallel step's agents: one line. */
export const PARALLEL_JOIN = " + ";

export interface ChainWorkspace {
  /** realpath of the checkout the agents work in. */
  root: string;
  artifactsDir: string;
  scratchDir: string;
  /** The `local://` scratch space shared by the chain's agents; default: `local/` in the artifacts dir, kept with them. */
  localDir?: string;
}

/**
 * How a job narrows or widens one step (a review's effort level): `look` offers the step only its
 * role's tools (the result tool) — no file, command, skill or scratch tools; `maxTurns` replaces
 * the agent's own cap, `why` names where it comes from; `brief` is added to the step's task.
 */
export interface StepShape {
  look?: boolean;
  /** A model for this step over the configured one (a one-look review on the operator's first-look model). */
  model?: string;
  maxTurns?: number;
  why?: string;
  brief?: string;
}

/** The step a job's hook is asked about: where it is, which agent runs it and that agent's role. */
export interface StepRef {
  index: number;
  agent: string;
  role: RoleName;
}

export interface RunChainOptions {
  chain: ChainDefinition;
  agents: Map<string, AgentDefinition>;
  /** The user's request: `{task}` in the chain. */
  task: string;
  context?: ContextSection[];
  /** `read-only` keeps every step read-only; `write` lets the writing role's step write. */
  mode: Mode;
  workspace: ChainWorkspace;
  sandbox: SandboxInfo;
  network?: boolean;
  /** Whose code the checkout holds: a stranger's (a fork's pull request) gets no bash for any agent. */
  trust: CheckoutTrust;
  /** A review's proofs: the reviewer gets `prove` (where it has bash) and runs them in this session. */
  proof?: ProofSession;
  envAllowlist?: Record<string, string>;
  budget: BudgetTracker;
  /** Model per agent name (config `models`), over the agent's own `model`. */
  models?: Record<string, string>;
  client: Anthropic;
  signal?: AbortSignal;
  emit?: EventSink;
  /*
   * The job's step policy, asked per step: the chain runs agents and knows no plan, review or
   * learnings; what a step's role means to the job comes in through these.
   */
  /** Work the job does between an agent's turns (e.g. the worker's commits); see RunAgentOptions. */
  betweenTurns?: (step: StepRef) => (() => Promise<void>) | undefined;
  /**
   * The job's handling of `complete_step` for one step; a step without one (no numbered plan) is
   * not offered the tool.
   */
  completeStep?: (step: StepRef) => ((n: number, note?: string) => Promise<string>) | undefined;
  /** How one step's tools, turn cap and task differ from its agent's (StepShape); none: the agent's own. */
  stepShape?: (step: StepRef) => StepShape | undefined;
  /** Context for one step on top of `context`, e.g. the learnings, or the current diff for a reviewer after a worker. */
  stepContext?: (step: StepRef) => Promise<ContextSection[]>;
  /** Why a finished step's output is no result the job can use (e.g. a planner's text with no plan); the chain fails with it. */
  checkOutput?: (step: StepRef, output: StepOutput) => string | undefined;
  /** The repository's skills: listed in every step's context, read with the `skill` tool. */
  skills?: readonly Skill[];
  /** The MCP tools a step of this role is offered (the job's MCP servers, mcp/session.ts), after the built-in ones. */
  mcpTools?: (role: RoleName) => Tool[];
  /** The job's stream rules, one RuleBook for all its agents (so `once` is once per job). */
  rules?: StreamRules;
  /** Injected in tests. */
  runAgent?: (options: RunAgentOptions) => Promise<AgentRunResult>;
  /** `ask_user` for the read-only steps before the chain's first writing step (not parallel items); how many questions the job put so far. */
  questions?: { asked: number };
  /** Goes on from a step paused on a question, with its answer; the steps before it are not run again. */
  resume?: ChainResume;
}

/** Where a chain stopped on a question: the step, what the steps before it handed over, and the agent's pause. */
export interface ChainPause {
  index: number;
  agent: string;
  previous: string;
  outputs: Record<string, string>;
  agentPause: AgentPause;
}

export interface ChainResume {
  pause: ChainPause;
  /** The answer as the tool result (answerResultText). */
  answer: string;
}

export interface StepResult extends AgentRunResult {
  index: number;
  agent: string;
  role: RoleName;
  model: string;
  mode: Mode;
}

export interface ChainResult {
  ok: boolean;
  stopReason: StopReason;
  budget?: BudgetName;
  /** For a budget stop: which budget, the job's or one agent's own `maxTurns`, for the final comment. */
  budgetReason?: string;
  /** Set when a step failed: which one and why. */
  error?: string;
  steps: StepResult[];
  /** The last finished step's text (the plan, the review, the worker's report). */
  output: string;
  /** Set with stopReason `waiting`: an agent asked the requester and the chain goes on from here once answered. */
  paused?: ChainPause;
}

/** Only a writing role's step writes, and only in a write chain; every other runs read-only (DESIGN §1). */
export function stepMode(chainMode: Mode, role: RoleName): Mode {
  return chainMode === "write" && ROLES[role].writes ? "write" : "read-only";
}

/** Whether a step's agent plays a writing role (an agent the map lacks plays none). */
export const isWritingStep = (step: ChainStep, agents: ReadonlyMap<string, AgentDefinition>): boolean => {
  const agent = agents.get(step.agent);
  return agent !== undefined && ROLES[roleOf(agent)].writes;
};

/** A write chain is one that has a step of a writing role (the worker); plan and review chains never write. */
export function chainMode(chain: ChainDefinition, agents: ReadonlyMap<string, AgentDefinition>): Mode {
  return chain.steps.some((step) => isWritingStep(step, agents)) ? "write" : "read-only";
}

/** Runs the steps in order, each agent's final text feeding the next; stops at the first failure. */
export async function runChain(options: RunChainOptions): Promise<ChainResult> {
  const { chain, emit = () => {} } = options;
  const steps: StepResult[] = [];
  const resumed = options.resume?.pause;
  let previous = resumed?.previous ?? "";
  /** The latest output of each agent so far: `{output:<agent>}`. */
  const outputs = new Map<string, string>(Object.entries(resumed?.outputs ?? {}));
  emit({ type: "chain_start", chain: chain.name, steps: chain.steps.map((s) => stepAgents(s).join(PARALLEL_JOIN)) });
  options = { ...options, workspace: { ...options.workspace, localDir: await makeLocalDir(options.workspace) } };

  for (const [index, step] of chain.steps.entries()) {
    if (resumed && index < resumed.index) continue;
    const unknown = stepAgents(step).find((name) => !options.agents.has(name));
    if (unknown !== undefined) return failed(steps, previous, "error", `step ${index + 1}: unknown agent "${unknown}" in ${chain.file}`);
    const at = { index, previous, outputs };
    const outcome = step.parallel ? await runParallel(step.parallel, at, options, steps) : await runStep(step, at, options, steps);
    if ("failure" in outcome) return outcome.failure;
    previous = outcome.output;
    for (const name of stepAgents(step)) outputs.set(name, outcome.output);
  }
  return { ok: true, stopReason: "done", steps, output: previous };
}

/** Where a step stands in the chain: its index, the previous output and every agent's latest one. */
interface StepAt {
  index: number;
  previous: string;
  outputs: ReadonlyMap<string, string>;
}

type StepOutcome = { output: string } | { failure: ChainResult };

/** Emits the step's start and end around one agent's run. */
async function runStep(step: ChainStep, at: StepAt, options: RunChainOptions, steps: StepResult[]): Promise<StepOutcome> {
  const emit = options.emit ?? (() => {});
  const role = roleOf(options.agents.get(step.agent)!);
  emit({ type: "step_start", index: at.index, agent: step.agent, role });
  const { result, failure } = await runItem(step, at, options, steps, { label: `step ${at.index + 1} (${step.agent})` });
  emit({ type: "step_end", index: at.index, agent: step.agent, role, stopReason: result.stopReason, output: result.text, ...(result.submission ? { submission: result.submission } : {}) });
  return failure ? { failure } : { output: result.text };
}

/**
 * A `parallel:` step: its items at once (PARALLEL_AT_ONCE at a time), each its own read-only agent
 * with an equal share of the job's remaining turns; the outputs joined under headings naming agent
 * and task. The first failure stops the others and fails the step naming the item.
 */
async function runParallel(items: ChainStep[], at: StepAt, options: RunChainOptions, steps: StepResult[]): Promise<StepOutcome> {
  const emit = options.emit ?? (() => {});
  const joined = items.map((i) => i.agent).join(PARALLEL_JOIN);
  emit({ type: "step_start", index: at.index, agent: joined, items: items.map((i) => ({ agent: i.agent, task: oneLine(i.task, 120) })) });
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const share = Math.max(1, Math.floor((options.budget.limits.maxTurns - options.budget.turns) / items.length));
  const results: Array<{ result: AgentRunResult; failure?: ChainResult } | undefined> = [];
  let next = 0;
  let failure: ChainResult | undefined;
  const lane = async (): Promise<void> => {
    while (next < items.length && failure === undefined) {
      const k = next++;
      const item = items[k]!;
      const label = `step ${at.index + 1} (parallel: ${item.agent} "${oneLine(item.task, 60)}")`;
      // Tagged with the item, so the transcript can keep each agent's entries apart.
      const tagged: EventSink = (event) => emit({ ...event, item: k + 1 });
      const done = await runItem(item, at, { ...options, signal, emit: tagged }, steps, { label, maxTurnsShare: share, key: `${k + 1}` });
      results[k] = done;
      if (done.failure && failure === undefined) {
        failure = done.failure;
        stop.abort(new Error(`another item of the step failed: ${label}`));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_AT_ONCE, items.length) }, lane));
  const output = items.map((item, k) => `## ${item.agent}: ${oneLine(item.task, 120)}\n\n${results[k]?.result.text.trim() ?? ""}`).join("\n\n");
  emit({ type: "step_end", index: at.index, agent: joined, stopReason: failure ? failure.stopReason : "done", output });
  return failure ? { failure } : { output };
}

/** One agent's run for a step or a parallel item; `failure` is set when the chain must stop. */
async function runItem(
  step: ChainStep,
  at: StepAt,
  options: RunChainOptions,
  steps: StepResult[],
  how: { label: string; maxTurnsShare?: number; key?: string },
): Promise<{ result: AgentRunResult; failure?: ChainResult }> {
  const { index, previous } = at;
  const emit = options.emit ?? (() => {});
  const run = options.runAgent ?? defaultRunAgent;
  const agent = options.agents.get(step.agent)!;
  const role = roleOf(agent);
  const ref: StepRef = { index, agent: agent.name, role };
  const mode = stepMode(options.mode, role);
  const shape = options.stepShape?.(ref);
  const model = shape?.model ?? options.models?.[agent.name] ?? agent.model ?? DEFAULT_MODEL;
  const suffix = how.key ? `-${how.key}` : "";
  const previousText = await handOver(previous, `step-${index}${suffix}-input`, options.workspace.artifactsDir);
  const handed = new Map<string, string>();
  for (const name of outputsNamed(step.task)) {
    handed.set(name, await handOver(at.outputs.get(name) ?? "", `step-${index}${suffix}-output-${name}`, options.workspace.artifactsDir, `The ${name}'s output`));
  }
  const rendered = renderTask(step.task, { task: options.task, previous: previousText, outputs: handed });
  const task = shape?.brief ? `${rendered}\n\n${shape.brief}` : rendered;
  const completeStep = options.completeStep?.(ref);
  // One look has no skill tool to read a listed skill with.
  const skills = shape?.look ? undefined : skillsContext(options.skills ?? []);
  const context = [...(options.context ?? []), ...(skills ? [skills] : []), ...((await options.stepContext?.(ref)) ?? [])];
  const ownTurns = shape?.maxTurns ?? agent.maxTurns;
  const maxTurns = how.maxTurnsShare === undefined ? ownTurns : Math.min(ownTurns ?? how.maxTurnsShare, how.maxTurnsShare);
  const questions = how.key === undefined && mode === "read-only" && options.questions !== undefined && beforeWriting(options, index) ? options.questions : undefined;
  const resumed = options.resume?.pause;
  const resume = resumed && resumed.index === index && how.key === undefined ? { pause: resumed.agentPause, answer: options.resume!.answer } : undefined;
  const tools = stepTools(mode, agent, options, emit, { numberedPlan: completeStep !== undefined, questions: questions !== undefined, look: shape?.look === true });
  const result = await run({
    agent: agent.name,
    model,
    system: systemPromptFor(agent.prompt, tools.map((t) => t.name)),
    prompt: buildStepPrompt(context, task),
    tools,
    toolContext: { ...toolContext(mode, options), ...(completeStep ? { completeStep } : {}), ...(questions ? { questionsAsked: questions.asked } : {}) },
    ...(resume ? { resume } : {}),
    budget: options.budget,
    maxTurns,
    thinking: agent.thinking,
    client: options.client,
    signal: options.signal,
    emit,
    summarizeArgs,
    betweenTurns: options.betweenTurns?.(ref),
    rules: options.rules,
  });
  steps.push({ ...result, index, agent: agent.name, role, model, mode });

  if (result.stopReason === "waiting" && result.paused) {
    const paused: ChainPause = { index, agent: agent.name, previous, outputs: Object.fromEntries(at.outputs), agentPause: result.paused };
    return { result, failure: { ...failed(steps, previous, "waiting", `${how.label}: waiting for an answer`), paused } };
  }
  if (result.stopReason !== "done") {
    const reason = result.error ?? result.stopReason;
    const out = failed(steps, previous, result.stopReason, `${how.label}: ${reason}`, result.budget);
    if (result.budget) out.budgetReason = budgetReason(result.budget, { ...agent, maxTurns }, result.turns, options.budget, shape?.maxTurns !== undefined ? shape.why : undefined);
    return { result, failure: out };
  }
  if (result.text.trim() === "") return { result, failure: failed(steps, previous, "error", `${how.label} gave no output`) };
  const problem = options.checkOutput?.(ref, result);
  if (problem) return { result, failure: failed(steps, previous, "error", `${how.label}: ${problem}`) };
  return { result };
}

/** A step before any writing step: a pause there loses nothing, as the checkout is still the commit it started on. */
function beforeWriting(options: RunChainOptions, index: number): boolean {
  const firstWriter = options.chain.steps.findIndex((step) => isWritingStep(step, options.agents));
  return firstWriter === -1 || index < firstWriter;
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

/**
 * Which budget stopped a step: an agent's own turn cap (its `maxTurns`) or one of the job's
 * budgets, so the final comment names the one to raise.
 */
function budgetReason(name: BudgetName, agent: AgentDefinition, turns: number, budget: BudgetTracker, capWhy = "its own maxTurns"): string {
  if (name === "maxTurns" && agent.maxTurns !== undefined && turns >= agent.maxTurns && budget.turns < budget.limits.maxTurns) {
    return `turn limit of the ${agent.name} reached (${agent.maxTurns} turn${agent.maxTurns === 1 ? "" : "s"}, ${capWhy})`;
  }
  return `${describeBudget(name, budget.limits)} for the job (budgets.${name})`;
}

/**
 * The step's tools, all from toolsFor: its role's own, `numberedPlan` for `complete_step`, `questions` for `ask_user`;
 * `look` (StepShape) lists no listable tool and offers no skill, scratch or proof tool.
 */
function stepTools(mode: Mode, agent: AgentDefinition, options: RunChainOptions, emit: EventSink, step: { numberedPlan: boolean; questions: boolean; look: boolean }) {
  const { look, ...asked } = step;
  const hasSkills = !look && (options.skills?.length ?? 0) > 0;
  const roleOwn = roleTools(roleOf(agent));
  const allow = look ? [] : agent.tools;
  const { tools, notes } = toolsFor(mode, { sandbox: options.sandbox, allow, trust: options.trust, roleTools: roleOwn, hasSkills, scratch: !look, prove: !look && options.proof !== undefined, ...asked });
  // One look runs no command: why bash is missing is no news there.
  for (const message of look ? [] : notes) emit({ type: "log", agent: agent.name, level: "warn", message });
  // The operator gave MCP tools to roles, not to agents: frontmatter does not narrow them; one look has none.
  return look ? tools : [...tools, ...(options.mcpTools?.(roleOf(agent)) ?? [])];
}

function toolContext(mode: Mode, options: RunChainOptions): ToolContext {
  const { workspace } = options;
  return {
    root: workspace.root,
    mode,
    artifactsDir: workspace.artifactsDir,
    readRoots: [workspace.artifactsDir],
    scratchDir: workspace.scratchDir,
    localDir: workspace.localDir,
    // runAgent ties this to its own abort controller (caller's signal + wall-time budget).
    signal: options.signal ?? new AbortController().signal,
    sandbox: options.sandbox,
    // A stranger's checkout has no bash, and so no command that could use the network.
    network: options.trust === "trusted" && (options.network ?? false),
    envAllowlist: options.envAllowlist ?? {},
    ...(options.proof ? { proof: options.proof } : {}),
    ...(options.skills && options.skills.length > 0 ? { skills: options.skills, readRoots: [workspace.artifactsDir, ...options.skills.map((s) => s.dir)] } : {}),
  };
}

/** The scratch space outside the checkout (a realpath, as the tools compare realpaths). */
async function makeLocalDir(workspace: ChainWorkspace): Promise<string> {
  const dir = workspace.localDir ?? path.join(workspace.artifactsDir, "local");
  await mkdir(dir, { recursive: true });
  return realpath(dir);
}

/** Inline when small; otherwise a file in the artifacts dir (readable by `read`) and a pointer. */
async function handOver(text: string, name: string, artifactsDir: string, what = "The previous step's output"): Promise<string> {
  if (Buffer.byteLength(text) <= MAX_INLINE_PREVIOUS) return text;
  const file = path.join(artifactsDir, `${name}.md`);
  await writeFile(file, text);
  const kb = Math.round(Buffer.byteLength(text) / 1024);
  return `(${what} is ${kb} KB, too long to include here. It is in the file ${file}; read it with the read tool.)`;
}
