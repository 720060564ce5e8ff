/**
 * The frame every job runs in: its comment and folders around the job's body, and its chain run
 * with the job's budget, signal and progress comment.
 */
import { BudgetTracker } from "../agent/budget.js";
import type { AgentEvent } from "../agent/events.js";
import { runChain, type ChainResult, type RunChainOptions } from "../chain/run-chain.js";
import type { ChainDefinition } from "../chain/types.js";
import type { ContextSection } from "../text/prompt.js";
import { RuleBook } from "../chain/rules.js";
import { limitReached } from "../installations/limits.js";
import type { JobContext, JobResult } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import type { Mode } from "../tools/types.js";
import { cleanJobDirs, makeJobDirs, type JobDirs } from "./job-dirs.js";
import { openJobReport, type JobAccess, type JobReport } from "./job-report.js";
import { failure } from "./outcome.js";
import type { Prepared } from "./prepare.js";
import type { JobServices } from "./services.js";
import { instructionEvents } from "./job-instructions.js";
import { learningsFor } from "../context/learnings-context.js";

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
    // The merged learnings go to the reviewer and the planner only, before the step's own context.
    stepContext: async (agent, index) => [...learningsFor(agent, prepared.learnings), ...((await options.stepContext?.(agent, index)) ?? [])],
    skills: prepared.skills?.skills,
    rules: new RuleBook(prepared.rules ?? []),
    ...(options.ask ? { ask: options.ask } : {}),
    ...(options.resume ? { resume: options.resume } : {}),
  });
  return { result, budget };
}
