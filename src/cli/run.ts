import os from "node:os";
import path from "node:path";
import { writeFile } from "node:fs/promises";
import { BudgetTracker } from "../agent/budget.js";
import type { EventSink } from "../agent/events.js";
import { applyModelSettings, type ModelSettings } from "../agent/model-settings.js";
import { createClient, hasModelAccess } from "../agent/provider.js";
import { loadDefinitions, type Definitions } from "../chain/definitions.js";
import type { ContextSection } from "../text/prompt.js";
import type { ChainDefinition } from "../chain/types.js";
import { chainMode, runChain, type ChainResult } from "../chain/run-chain.js";
import { RuleBook } from "../chain/rules.js";
import { cleanJobDirs, makeJobDirs, newJobId, type JobDirs } from "../jobs/job-dirs.js";
import { checkStepOutput } from "../jobs/step-results.js";
import { commandsRefusal, sandboxFor, sandboxPolicy, UNSANDBOXED_NOTE, runsUnsandboxed } from "../tools/sandbox-policy.js";
import type { Mode, SandboxInfo } from "../tools/types.js";
import { git } from "../workspace/git.js";
import { addWorktree, diffAgainst, removeWorktree, repoTop, type Worktree } from "../workspace/worktree.js";
import type { RunArgs } from "./args.js";
import type { CliIO } from "./io.js";
import { ProgressFormatter } from "./format.js";
import { localInstructions } from "./local-instructions.js";
import { localMcpConfig, openLocalMcp, redactingIO, type LocalMcp } from "./local-mcp.js";
import { renderJson, renderText, reportMode, summariseOutputs, type RunReport } from "./report.js";


/** The CLI keeps its jobs out of the repository it works on, unless told where. */
export function cliDataDir(env: NodeJS.ProcessEnv): string {
  if (env.CREWBOT_DATA_DIR) return path.resolve(env.CREWBOT_DATA_DIR);
  const cache = env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(cache, "crewbot");
}

/** `crewbot run`: one chain on a local checkout; returns the exit status. */
export async function runCommand(args: RunArgs, plainIO: CliIO): Promise<number> {
  let io = plainIO;
  const fail = (message: string) => {
    io.stderr(`crewbot: ${message}`);
    return 1;
  };
  let access: boolean;
  try {
    access = hasModelAccess(io.env);
  } catch (error) {
    return fail((error as Error).message); // an unknown CREWBOT_MODEL_PROVIDER
  }
  if (!access) return fail("ANTHROPIC_API_KEY is not set; crewbot run needs it to reach the model.");
  const local = await localChain(args, io);
  if (typeof local === "string") return fail(local);
  // CREWBOT_MCP_CONFIG and the checkout's `mcp.servers`: a bad file stops the run here, naming it and the key.
  const mcp = await localMcpConfig(local.repo, io.env);
  if (typeof mcp === "string") return fail(mcp);
  io = redactingIO(io, mcp.secrets);
  const setup = await localSandbox(args, io, chainMode(local.chain, local.definitions.agents));
  if (typeof setup === "string") return fail(setup);
  const run: LocalRun = { ...local, ...setup, mcp };
  const jobId = newJobId("local");
  const dirs = await makeJobDirs(cliDataDir(io.env), jobId);
  let worktree: Worktree | undefined;
  try {
    if (run.mode === "write") worktree = await addWorktree(run.repo, dirs.workDir, "checkout");
    const budget = new BudgetTracker(args.budgets);
    const result = await runLocalChain(args, io, run, { dirs, worktree, budget });
    const report = await buildReport({ args, result, mode: run.mode, budget, jobId, artifactsDir: dirs.artifactsDir, worktree });
    io.stdout(args.json ? renderJson(report) : renderText(report));
    if (!report.ok) io.stderr(`crewbot: ${report.error}`);
    return report.ok ? 0 : 1;
  } catch (error) {
    return fail(`job ${jobId} failed: ${(error as Error).message}`);
  } finally {
    if (worktree) await removeWorktree(run.repo, worktree.path);
    await cleanJobDirs(dirs);
  }
}

/** What a local run runs: the repository, its definitions, the chain, and the sandbox it runs in. */
interface LocalRun {
  repo: string;
  definitions: Definitions;
  chain: ChainDefinition;
  mode: Mode;
  sandbox: SandboxInfo;
  modelSettings: ModelSettings;
  mcp: LocalMcp;
}

/** The repository's top and the chain asked for among its definitions; else why not. */
async function localChain(args: RunArgs, io: CliIO): Promise<Pick<LocalRun, "repo" | "definitions" | "chain"> | string> {
  let repo: string;
  let definitions: Definitions;
  try {
    repo = await repoTop(path.resolve(args.repo));
    definitions = await loadDefinitions(repo);
  } catch (error) {
    return (error as Error).message;
  }
  const chain = definitions.chains.get(args.chain);
  if (!chain) {
    return `unknown chain "${args.chain}"; available: ${[...definitions.chains.keys()].sort().join(", ")}`;
  }
  // A skill that could not be read is skipped, as in a job, and said so by name.
  for (const note of definitions.skills?.notes ?? []) io.stderr(`crewbot: note: ${note}`);
  return { repo, definitions, chain };
}

/**
 * As the app: no sandbox, no commands for a write chain, unless explicitly allowed; the model's
 * retry window and the operator's prices from the same variables. Else why the run may not go.
 */
async function localSandbox(args: RunArgs, io: CliIO, mode: Mode): Promise<Pick<LocalRun, "mode" | "sandbox" | "modelSettings"> | string> {
  let sandbox: SandboxInfo;
  let modelSettings: ModelSettings;
  try {
    modelSettings = applyModelSettings(io.env);
    const policy = sandboxPolicy(io.env);
    sandbox = await sandboxFor(io.env, { ...policy, allowUnsandboxed: policy.allowUnsandboxed || args.allowUnsandboxed });
  } catch (error) {
    return (error as Error).message;
  }
  if (mode === "write") {
    const refusal = commandsRefusal(sandbox, { network: args.network });
    if (refusal) return `${refusal.reason}. ${refusal.remedy.replace("set CREWBOT_ALLOW_UNSANDBOXED=1", "pass --allow-unsandboxed")}`;
    if (runsUnsandboxed(sandbox)) io.stderr(`crewbot: warning: ${UNSANDBOXED_NOTE}`);
  } else if (args.network && sandbox.available && sandbox.network?.available !== true) {
    return commandsRefusal(sandbox, { network: true })!.reason;
  }
  return { mode, sandbox, modelSettings };
}

/** The chain on the checkout (a worktree for a write chain), its progress as lines on stderr. */
async function runLocalChain(
  args: RunArgs,
  io: CliIO,
  { repo, definitions, chain, mode, sandbox, modelSettings, mcp: servers }: LocalRun,
  { dirs, worktree, budget }: { dirs: JobDirs; worktree: Worktree | undefined; budget: BudgetTracker },
): Promise<ChainResult> {
  const root = worktree?.path ?? repo;
  const formatter = new ProgressFormatter(() => budget);
  const emit: EventSink = (event) => {
    const line = formatter.format(event);
    if (line !== null) io.stderr(line);
  };
  const workspace = { root, artifactsDir: dirs.artifactsDir, scratchDir: dirs.scratchDir };
  const context = await gatherContext(root, chain.name);
  const client = createClient({ env: io.env, retry: modelSettings.retry, secrets: servers.secrets });
  // Closed when the chain ends, however it ends: no server of the checkout's is left running.
  const mcp = await openLocalMcp(servers, io, { chain, agents: definitions.agents, workspace: { ...workspace, sandbox, network: args.network, mode } });
  return runChain({
    chain,
    agents: definitions.agents,
    task: args.request,
    context,
    stepContext: async (step) => (worktree && step.role === "reviewer" ? changesSoFar(worktree) : []),
    checkOutput: checkStepOutput,
    mode,
    workspace,
    sandbox,
    network: args.network,
    // The operator's own local repository, run by the operator: the repository's own code.
    trust: "trusted",
    budget,
    models: args.model ? Object.fromEntries([...definitions.agents.keys()].map((name) => [name, args.model!])) : undefined,
    client,
    signal: io.signal,
    emit,
    // The local repository's `.github/crewbot/rules/`, as loaded with its definitions.
    rules: new RuleBook(definitions.rules ?? []),
    // The local checkout's skills (`.github/skills/` and the others), offered as in a job.
    skills: definitions.skills?.skills,
    mcpTools: mcp.toolsFor,
  }).finally(() => mcp.close());
}

/** Repository instructions, and for a review the uncommitted changes it is asked about. */
async function gatherContext(root: string, chainName: string): Promise<ContextSection[]> {
  const context = await localInstructions(root, chainName === "review");
  if (chainName === "review") {
    const diff = await git(["diff", "HEAD", "--"], { cwd: root }).catch(() => "");
    if (diff.trim() !== "") context.push({ source: "git diff HEAD (uncommitted changes)", text: diff });
  }
  return context;
}

/** A reviewer after a worker sees what the worker changed (agents cannot read .git themselves). */
async function changesSoFar(worktree: Worktree): Promise<ContextSection[]> {
  const diff = await diffAgainst(worktree.path, worktree.base);
  return [{ source: "the changes made so far (git diff)", text: diff || "(no changes)" }];
}

interface ReportInput {
  args: RunArgs;
  result: ChainResult;
  mode: Mode;
  budget: BudgetTracker;
  jobId: string;
  artifactsDir: string;
  worktree?: Worktree;
}

async function buildReport(input: ReportInput): Promise<RunReport> {
  const { args, result, mode, budget, worktree } = input;
  const outputs = summariseOutputs(result);
  let diff: string | undefined;
  let patchFile: string | undefined;
  if (worktree) {
    diff = await diffAgainst(worktree.path, worktree.base);
    if (diff !== "") {
      patchFile = path.join(input.artifactsDir, "changes.patch");
      await writeFile(patchFile, diff);
    }
  }
  let { ok, error } = result;
  if (ok && args.chain === "plan" && (outputs.plan?.steps.length ?? 0) === 0) {
    ok = false;
    error = "the planner gave no plan (no numbered list under a `## Plan` header)";
  }
  return {
    ok,
    error,
    jobId: input.jobId,
    chain: args.chain,
    mode: reportMode(mode),
    request: args.request,
    stopReason: result.stopReason,
    budget: result.budget,
    durationMs: budget.elapsedMs(),
    usage: budget.usage,
    costUsd: budget.costUsd,
    costEstimate: budget.estimate,
    steps: result.steps.map((s) => ({
      agent: s.agent,
      model: s.model,
      mode: reportMode(s.mode),
      stopReason: s.stopReason,
      turns: s.turns,
      usage: s.usage,
      costUsd: s.costUsd,
    })),
    ...outputs,
    diff,
    patchFile,
    artifactsDir: input.artifactsDir,
    output: result.output,
  };
}
