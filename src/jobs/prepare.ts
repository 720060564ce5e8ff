import path from "node:path";
import { BudgetTracker } from "../agent/budget.js";
import type { AgentEvent } from "../agent/events.js";
import { chainMode, runChain, type ChainResult, type RunChainOptions } from "../chain/run-chain.js";
import { DefinitionError, type ChainDefinition } from "../chain/types.js";
import type { JobContext, JobResult } from "../queue/runner.js";
import type { Mode } from "../tools/types.js";
import type { ContextSection } from "../chain/prompt.js";
import { loadDefinitions, type Definitions } from "../chain/definitions.js";
import { REPO_RULES_DIR, RuleBook } from "../chain/rules.js";
import { loadRepoConfig } from "../config/load.js";
import { limitReached } from "../installations/limits.js";
import { CONFIG_PATH, type CrewbotConfig } from "../config/schema.js";
import { ConfigError } from "../config/validate.js";
import { issueContext } from "../context/issue-context.js";
import type { JobRecord } from "../queue/types.js";
import { makeCheckout } from "../workspace/checkout.js";
import { readDefaultBranchFiles, SKILL_TREES } from "../workspace/default-branch.js";
import { detectRepoFeatures, featureNotes } from "../workspace/repo-features.js";
import { resolveCheckoutTrust, trustRefusal, type CheckoutTrust } from "./checkout-trust.js";
import { cleanJobDirs, makeJobDirs, type JobDirs } from "./job-dirs.js";
import { instructionEvents, jobInstructions, touchedFiles } from "./job-instructions.js";
import { jobTypeOf } from "./job-types.js";
import { openJobReport, type JobAccess, type JobReport } from "./job-report.js";
import { failure } from "./outcome.js";
import type { JobServices } from "./services.js";

/**
 * Every job's frame: its comment opened first (👀, progress comment), its folders made, any
 * exception ended in the comment as `❌ Failed` (or `⏹ Cancelled`), its folders removed after.
 */
export async function inJobFrame(
  job: JobRecord,
  ctx: JobContext,
  services: JobServices,
  body: (report: JobReport, dirs: JobDirs, access: JobAccess) => Promise<JobResult>,
): Promise<JobResult> {
  const { report, access } = await openJobReport(job, ctx, services);
  const { installationId } = job.target;
  let dirs: JobDirs | undefined;
  try {
    const limit = await limitReached(services.limits, services.usage, installationId);
    if (limit) return await report.finish({ terminal: { kind: "failed", reason: limit } });
    await services.usage.recordStart(installationId, job.id, Date.now());
    dirs = await makeJobDirs(services.dataDir, job.id);
    return await body(report, dirs, access);
  } catch (error) {
    return await report.finish(failure(error, ctx.signal));
  } finally {
    if (dirs) await cleanJobDirs(dirs).catch(() => undefined);
    // What the job cost counts against the installation's monthly budget, however it ended.
    services.metrics.jobUsage(job.kind, report.state.usage, report.state.costUsd);
    if (report.state.costUsd > 0) await services.usage.recordCost(installationId, job.id, report.state.costUsd).catch(() => undefined);
  }
}

export interface Prepared extends Definitions {
  /** realpath of the job's checkout. */
  root: string;
  /** The commit checked out. */
  sha: string;
  /** Whose code that is (jobs/checkout-trust.ts): a stranger's gets no bash, setup or check. */
  trust: CheckoutTrust;
  /** What the agents read as data: repository instructions, then the issue or PR. */
  context: ContextSection[];
  /** `.github/crewbot.yml` of the default branch (or the organisation's), defaults filled in. */
  config: CrewbotConfig;
  /** What the checkout lacks (submodules, LFS content), for the final comment; also in `context`. */
  notes: string[];
  /** Which repository instructions `context` holds, for whom, and what was left out (jobs/job-instructions.ts), for the transcript. */
  instructions: readonly string[];
}

/** A command the repository's config turned off ends the job before anything is cloned. */
export function assertCommandOn(job: JobRecord, config: CrewbotConfig): void {
  // An automatic review is not a command: `review.auto` decides it (see review/skip.ts); nor is a
  // ci-fix, which `implement.ciFix.rounds` decides.
  // "Fix these findings" neither: `review.fixAction` decides it.
  if (job.kind === "ci-fix" || job.fixFindings || config.commands[job.kind] || job.review?.automatic) return;
  throw new Error(`/${job.kind} is turned off for this repository (commands.${job.kind}: false in ${CONFIG_PATH})`);
}

/**
 * A job's ground: the mirror brought up to date, a fresh checkout (the default branch for an
 * issue, the head for a PR), and the agents, chains and instructions of the DEFAULT branch.
 */
export interface PrepareOptions {
  /** Config already loaded by the job. */
  config?: CrewbotConfig;
  /** What to check out instead of the default (a PR's exact head commit). */
  ref?: string;
  /** Runs while the mirror is up to date and held (a review's diffs are read there). */
  withMirror?: (mirror: string) => Promise<void>;
  /** More commits `withMirror` diffs (a review's last reviewed head): their files are fetched into a partial mirror too. */
  hydrate?: string[];
  /** The PR head's `owner/repo`, when the job read the PR already (null: the fork is gone); else found by `resolveCheckoutTrust`. */
  headRepo?: string | null;
  /** The files the job touches or reviews, once `withMirror` ran, for their nested instructions; default: a PR's changed files. */
  touches?: () => readonly string[];
}

export async function prepareJob(
  job: JobRecord,
  /** How to read the repository; `report`, when given, hears what the checkout lacks. */
  opened: { access: Pick<JobAccess, "octokit" | "token">; report?: Pick<JobReport, "set"> },
  services: JobServices,
  dirs: JobDirs,
  options: PrepareOptions = {},
): Promise<Prepared> {
  const { owner, repo, number, isPullRequest } = job.target;
  const { access, report } = opened;
  // Before anything is read or cloned: a write job never runs on a stranger's code.
  const trust = await resolveCheckoutTrust(job, access.octokit, options.headRepo);
  const refusal = trustRefusal(jobTypeOf(job), trust);
  if (refusal) throw new Error(refusal);
  const config = options.config ?? (await loadRepoConfig(access.octokit, { owner, repo })).config;
  assertCommandOn(job, config);
  if (config.transcripts.public && !job.repo.private) services.transcripts?.makePublic(job.id);
  const defaultsDir = path.join(dirs.workDir, "default-branch");
  const ref = options.ref ?? (isPullRequest ? `refs/pull/${number}/head` : job.repo.defaultBranch);
  // A PR's head is fetched for this job only; a large repository's files only for what is checked out.
  const lease = await services.mirrors.sync({
    owner,
    repo,
    cloneUrl: job.repo.cloneUrl,
    token: access.token,
    defaultBranch: job.repo.defaultBranch,
    sizeKb: job.repo.size,
    pulls: isPullRequest ? [number] : [],
    hydrate: [ref, ...(options.hydrate ?? [])],
  });
  const log = { jobId: job.id, warn: (line: string) => services.log.warn(line) };
  let checkout;
  let defaults;
  let touched;
  try {
    checkout = await makeCheckout({ mirror: lease.path, ref, dest: path.join(dirs.workDir, "checkout"), cloneUrl: job.repo.cloneUrl });
    defaults = await readDefaultBranchFiles(lease.path, job.repo.defaultBranch, defaultsDir);
    await options.withMirror?.(lease.path);
    touched = await touchedFiles(lease.path, job, { head: checkout.sha, defaultBranch: defaults.sha }, options.touches, log);
  } finally {
    await lease.release();
  }
  refuseSkippedRules(defaults.skipped);
  const definitions = await loadDefinitions(defaultsDir);
  const instructions = await jobInstructions(defaultsDir, defaults, job, config, touched, log);
  const notes = [...featureNotes(await detectRepoFeatures(checkout.path)), ...skillNotes(defaults.skipped, definitions.skills?.notes ?? []), ...instructions.notes];
  if (notes.length > 0) report?.set({ notes });
  const lacks = notes.length > 0 ? [{ source: "what the checkout lacks", text: notes.join("\n") }] : [];
  const context = [...instructions.sections, ...lacks, ...(await issueContext(access.octokit, job, services.permissions))];
  return { ...definitions, root: checkout.path, sha: checkout.sha, trust, context, config, notes, instructions: instructions.applied };
}

/** A rule file the default branch could not give (symlink, too large) fails the job like a broken one, by name. */
function refuseSkippedRules(skipped: readonly { path: string; reason: string }[]): void {
  const rule = skipped.find((s) => s.path === REPO_RULES_DIR || s.path.startsWith(`${REPO_RULES_DIR}/`));
  if (rule) throw new DefinitionError(rule.path, "file", `refused: ${rule.reason}`);
}

/** Skills skipped on the default branch (a symlinked or oversized file) or when loaded, each naming its file. */
function skillNotes(skipped: readonly { path: string; reason: string }[], loaded: readonly string[]): string[] {
  const fromTree = skipped.filter((s) => SKILL_TREES.some((tree) => s.path === tree || s.path.startsWith(`${tree}/`)));
  return [...fromTree.map((s) => `${s.path}: skipped (${s.reason})${s.path.endsWith("/SKILL.md") ? "; that skill is not offered" : ""}`), ...loaded];
}

/**
 * The configured write chain from its worker on, with the worker's task replaced: for work whose
 * plan is already known (an approved plan, a PR's feedback), without new scout or planner steps.
 */
export function fromWorker(configured: ChainDefinition, name: string, task: string): ChainDefinition {
  const worker = configured.steps.findIndex((step) => step.agent === "worker");
  return { name, file: "(built in)", steps: [{ agent: "worker", task }, ...configured.steps.slice(worker + 1)] };
}

/** `implement.chain` of the config: a chain of the repository or a bundled one, with a worker step. */
export function implementChain(prepared: Prepared): ChainDefinition {
  const name = prepared.config.implement.chain;
  const chain = prepared.chains.get(name);
  const available = [...prepared.chains.values()].filter((c) => chainMode(c) === "write").map((c) => c.name).sort();
  if (!chain || chainMode(chain) !== "write") {
    const problem = chain ? `the chain "${name}" has no worker step` : `there is no chain "${name}"`;
    throw new ConfigError(CONFIG_PATH, [`\`implement.chain\`: expected a chain with a worker step (${available.join(", ")}); ${problem}`]);
  }
  return chain;
}

export interface JobChainOptions {
  chain: ChainDefinition;
  task: string;
  mode: Mode;
  /** Extra handling of the agents' events, after the progress comment's. */
  observe?: (event: AgentEvent) => void;
  betweenTurns?: RunChainOptions["betweenTurns"];
  completeStep?: RunChainOptions["completeStep"];
  stepContext?: RunChainOptions["stepContext"];
  /** Extra context for every step (a review's diff), after the repository's and the issue's. */
  context?: ContextSection[];
  /** The job's budget so far (a job resumed after a question); default: a new one. */
  budget?: BudgetTracker;
  ask?: RunChainOptions["ask"];
  resume?: RunChainOptions["resume"];
  proof?: RunChainOptions["proof"];
}

/**
 * Runs a job's chain in its prepared checkout with the job's budget, signal and progress
 * comment. From here on an interruption is final: the agents may have changed things.
 */
export async function runJobChain(
  ctx: JobContext,
  services: JobServices,
  report: Pick<JobReport, "event">,
  prepared: Prepared,
  dirs: JobDirs,
  options: JobChainOptions,
): Promise<{ result: ChainResult; budget: BudgetTracker }> {
  await ctx.update({ agentsStarted: true });
  const { config } = prepared;
  const budget = options.budget ?? new BudgetTracker(config.budgets);
  for (const event of instructionEvents(prepared.instructions)) report.event(event);
  const result = await runChain({
    chain: options.chain,
    agents: prepared.agents,
    task: options.task,
    context: [...prepared.context, ...(options.context ?? [])],
    mode: options.mode,
    trust: prepared.trust,
    ...(options.proof ? { proof: options.proof } : {}),
    workspace: { root: prepared.root, artifactsDir: dirs.artifactsDir, scratchDir: dirs.scratchDir },
    sandbox: await services.sandbox(),
    budget,
    models: config.models,
    network: config.sandbox.network,
    client: services.anthropic(),
    signal: ctx.signal,
    emit: (event) => {
      report.event(event);
      options.observe?.(event);
    },
    betweenTurns: options.betweenTurns,
    completeStep: options.completeStep,
    stepContext: options.stepContext,
    skills: prepared.skills?.skills,
    rules: new RuleBook(prepared.rules ?? []),
    ...(options.ask ? { ask: options.ask } : {}),
    ...(options.resume ? { resume: options.resume } : {}),
  });
  return { result, budget };
}
