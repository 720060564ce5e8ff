/**
 * The frame every job runs in: its surface, limits, folders and cost around the job's body, and
 * its chain run with the job's budget, signal and report.
 */
import { BudgetTracker } from "../agent/budget.js";
import type { AgentEvent } from "../agent/events.js";
import { runChain, type ChainResult, type RunChainOptions } from "../chain/run-chain.js";
import type { ContextSection } from "../text/prompt.js";
import { RuleBook } from "../chain/rules.js";
import { checkLimits, type LimitReached } from "../installations/limits.js";
import { CapReached, limitEnding, spendScope, spendWhileRunning, type CapConfig } from "./spend-check.js";
import type { JobContext, JobResult } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import { keepJobEnd } from "./insight-records.js";
import { cleanJobDirs, makeJobDirs, type JobDirs } from "./job-dirs.js";
import type { JobAccess, JobReport } from "./job-report.js";
import { surfaceOf } from "./job-surfaces.js";
import type { InstallationOctokit } from "../github/types.js";
import type { GitHubWriter } from "../report/github-writer.js";
import { failure } from "./outcome.js";
import type { Prepared } from "./prepare.js";
import type { JobServices } from "./services.js";
import { instructionEvents } from "./job-instructions.js";
import { learningsFor } from "../context/learnings-context.js";
import { checkStepOutput } from "./step-results.js";
import { readTickets } from "../mcp/tickets.js";
import type { McpSession } from "../mcp/session.js";
import { jobMcp } from "./job-mcp.js";

/** A job's frame once its surface is open: the body calls `begin` when its work begins. */
export interface OpenFrame {
  report: JobReport;
  access: JobAccess;
  /**
   * The work begins: the operator's limits checked (with the repository's monthly cap when the job
   * read its `config` already), the start recorded (jobs per hour), the surface told (a check run
   * starts) and the job's folders made. A limit reached is returned, not ended: the job says so its
   * own way (an automatic review in its skipped check run).
   */
  begin(config?: CapConfig): Promise<{ limit: LimitReached } | { dirs: JobDirs }>;
}

/**
 * The one frame every job runs in, on the surface its type's row names (jobs/job-types.ts): the
 * job's credentials and writer, its surface opened first (for a progress comment: 👀 and the
 * comment, a queued one taken over), any exception ended on the surface as `❌ Failed` (or
 * `⏹ Cancelled`), its folders removed after, and what it cost — counted from its events on every
 * surface — in the metrics and against the monthly caps (its installation's and its
 * repository's), however it ended.
 */
export async function inOpenFrame(job: JobRecord, ctx: JobContext, services: JobServices, body: (frame: OpenFrame) => Promise<JobResult>): Promise<JobResult> {
  const { installationId } = job.target;
  const octokit = await services.github.octokitFor(installationId);
  const token = await services.github.tokenFor(octokit);
  const writer = services.github.writerFor(installationId, octokit, [token]);
  const access = jobAccess(octokit, token, writer, services);
  const report = await surfaceOf(job).open(job, ctx, services, { writer, access });
  let dirs: JobDirs | undefined;
  let spending: { stop(): Promise<void> } | undefined;
  const scope = spendScope(job);
  const begin: OpenFrame["begin"] = async (config) => {
    const check = await checkLimits(services.operator.limits, services.operator.usage, spendScope(job, config));
    if (check.reached) return { limit: check.reached };
    if (check.notice) report.set({ spendNotice: check.notice });
    await services.operator.usage.recordStart(installationId, job.id, Date.now(), scope.repo);
    spending = spendWhileRunning(services.operator.usage, job, scope.repo, () => report.state.costUsd);
    await report.begin?.();
    dirs = await makeJobDirs(services.runtime.dataDir, job.id);
    return { dirs };
  };
  let result: JobResult | undefined;
  try {
    return (result = await body({ report, access, begin }));
  } catch (error) {
    if (error instanceof CapReached) return (result = await report.finish(limitEnding(error.limit)));
    return (result = await report.finish(failure(error, ctx.signal)));
  } finally {
    if (dirs) await cleanJobDirs(dirs).catch(() => undefined);
    await spending?.stop();
    const { usage, costUsd } = report.state;
    services.observe.metrics.jobUsage(job.kind, usage, costUsd);
    if (costUsd > 0) await services.operator.usage.recordCost(installationId, job.id, costUsd, scope.repo).catch(() => undefined);
    await keepJobEnd(services, job, result, costUsd);
  }
}

/** The frame for a job whose work begins at once: a limit reached ends it naming the limit (limitEnding). */
export function inJobFrame(
  job: JobRecord,
  ctx: JobContext,
  services: JobServices,
  body: (report: JobReport, dirs: JobDirs, access: JobAccess) => Promise<JobResult>,
): Promise<JobResult> {
  return inOpenFrame(job, ctx, services, async ({ report, access, begin }) => {
    const begun = await begin();
    if ("limit" in begun) return report.finish(limitEnding(begun.limit));
    return body(report, begun.dirs, access);
  });
}

/** What the job reads GitHub and pushes with; a renewed token is redacted like the first. */
function jobAccess(octokit: InstallationOctokit, token: string, writer: GitHubWriter, services: JobServices): JobAccess {
  return {
    octokit,
    token,
    gitToken: async (options) => {
      const current = await services.github.tokenFor(octokit, options);
      writer.addSecret(current);
      return current;
    },
  };
}

/**
 * What a job gives its chain beyond its prepared ground: the chain and task, the step policy's
 * hooks and the run's own options, passed on as they are. The mode, budgets, models, network and
 * trust come from the job's policy (jobs/job-policy.ts), never from here.
 */
export type JobChainOptions = Pick<RunChainOptions, "chain" | "task" | "betweenTurns" | "completeStep" | "stepShape" | "questions" | "resume" | "proof"> & {
  /** Extra handling of the agents' events, after the progress comment's. */
  observe?: (event: AgentEvent) => void;
  /** Context for one step, after the merged learnings its role gets. */
  stepContext?: RunChainOptions["stepContext"];
  /** Extra context for every step (a review's diff), after the repository's and the issue's. */
  context?: ContextSection[];
  /** The job's budget so far (a job resumed after a question); default: a new one. */
  budget?: BudgetTracker;
};

/**
 * Runs a job's chain in its prepared checkout with the job's policy, budget, signal and progress
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
  const { policy } = prepared;
  const { observe, stepContext, context, budget: resumed, ...passed } = options;
  const budget = resumed ?? new BudgetTracker(policy.budgets);
  for (const event of instructionEvents(prepared.instructions)) report.event(event);
  const mcp = await jobMcp(services, prepared, dirs, options.chain, { signal: ctx.signal, event: report.event });
  const tickets = await jobTickets(services, prepared, mcp, report, ctx.signal).catch(async (error: unknown) => {
    await mcp.close();
    throw error;
  });
  const result = await runChain({
    ...passed,
    agents: prepared.agents,
    context: [...prepared.context, ...tickets, ...(context ?? [])],
    mode: policy.mode,
    trust: policy.trust,
    workspace: { root: prepared.root, artifactsDir: dirs.artifactsDir, scratchDir: dirs.scratchDir },
    sandbox: await services.runtime.sandbox(),
    budget,
    models: policy.models,
    network: policy.network,
    client: services.runtime.anthropic(),
    signal: ctx.signal,
    emit: (event) => {
      report.event(event);
      observe?.(event);
    },
    // The merged learnings go to the roles that get them only, before the step's own context.
    stepContext: async (step) => [...learningsFor(step.role, prepared.learnings), ...((await stepContext?.(step)) ?? [])],
    checkOutput: checkStepOutput,
    skills: prepared.skills?.skills,
    rules: new RuleBook(prepared.rules ?? []),
    mcpTools: mcp.toolsFor,
  }).finally(() => mcp.close());
  return { result, budget };
}

/** The tickets the issue or PR links to, read through the job's session before the agents start (mcp/tickets.ts). */
function jobTickets(services: JobServices, prepared: Prepared, mcp: McpSession, report: Pick<JobReport, "event">, signal: AbortSignal): Promise<ContextSection[]> {
  const { jobId, links } = prepared.linkedTickets;
  return readTickets(links, mcp, services.runtime.mcpServers ?? [], { jobId, signal, emit: (event) => report.event(event), log: services.observe.log });
}
