import path from "node:path";
import { BudgetTracker, describeBudget } from "../agent/budget.js";
import { loadDefinitions } from "../chain/definitions.js";
import { parsePlan } from "../chain/parse-plan.js";
import { runChain, type ChainResult } from "../chain/run-chain.js";
import { cleanText } from "../context/clean-text.js";
import { issueContext } from "../context/issue-context.js";
import { readRepoInstructions } from "../context/repo-instructions.js";
import type { JobContext, JobResult } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import type { ProgressState, Terminal } from "../report/types.js";
import { cleanJobDirs, makeJobDirs, type JobDirs } from "./job-dirs.js";
import { openJobReport, type JobReport } from "./job-report.js";
import type { JobServices } from "./services.js";
import { makeCheckout } from "../workspace/checkout.js";
import { readDefaultBranchFiles } from "../workspace/default-branch.js";

/**
 * `/plan`: scout → planner, read-only, on a fresh checkout (the default branch for an issue, the
 * head for a PR), with agents, prompts and instructions from the default branch. The progress
 * comment becomes the plan as a task list ending with the approval checkbox.
 */
export async function runPlanJob(job: JobRecord, ctx: JobContext, services: JobServices): Promise<JobResult> {
  const report = await openJobReport(job, ctx, services);
  let dirs: JobDirs | undefined;
  try {
    dirs = await makeJobDirs(services.dataDir, job.id);
    const { owner, repo, number, isPullRequest } = job.target;
    const { octokit, token } = report;
    const defaultsDir = path.join(dirs.workDir, "default-branch");
    const lease = await services.mirrors.sync({ owner, repo, cloneUrl: job.repo.cloneUrl, token, defaultBranch: job.repo.defaultBranch });
    let root: string;
    try {
      const ref = isPullRequest ? `refs/pull/${number}/head` : job.repo.defaultBranch;
      root = (await makeCheckout({ mirror: lease.path, ref, dest: path.join(dirs.workDir, "checkout"), cloneUrl: job.repo.cloneUrl })).path;
      await readDefaultBranchFiles(lease.path, job.repo.defaultBranch, defaultsDir);
    } finally {
      await lease.release();
    }
    const { agents, chains } = await loadDefinitions(defaultsDir);
    const context = [...(await readRepoInstructions(defaultsDir)), ...(await issueContext(octokit, job))];

    await ctx.update({ agentsStarted: true });
    const budget = new BudgetTracker(services.budgets);
    const result = await runChain({
      chain: chains.get("plan")!,
      agents,
      task: planTask(job),
      context,
      mode: "plan",
      workspace: { root, artifactsDir: dirs.artifactsDir, scratchDir: dirs.scratchDir },
      sandbox: await services.sandbox(),
      budget,
      client: services.anthropic(),
      signal: ctx.signal,
      emit: (event) => report.event(event),
    });
    return await report.finish(planOutcome(result, ctx.signal, budget.limits));
  } catch (error) {
    return await report.finish(failure(error, ctx.signal));
  } finally {
    if (dirs) await cleanJobDirs(dirs).catch(() => undefined);
  }
}

/** The request is the task; when it is empty, the issue itself is. */
function planTask(job: JobRecord): string {
  const request = cleanText(job.trigger.request).trim();
  const noun = job.target.isPullRequest ? "pull request" : "issue";
  const what = `Make a plan for ${noun} #${job.target.number} (its text is in the context).`;
  return request ? `${request}\n\n(${what})` : what;
}

type Ending = { terminal: Terminal; patch?: Partial<ProgressState> };

function planOutcome(result: ChainResult, signal: AbortSignal, limits: BudgetTracker["limits"]): Ending {
  if (result.stopReason === "aborted") return failure(new Error("aborted"), signal);
  if (result.stopReason === "budget" && result.budget) return { terminal: { kind: "stopped", budget: describeBudget(result.budget, limits) } };
  if (!result.ok) return { terminal: { kind: "failed", reason: result.error ?? result.stopReason } };
  const plan = parsePlan(result.output);
  if (plan.steps.length === 0) {
    return { terminal: { kind: "failed", reason: "the planner gave no plan (no numbered list under a `## Plan` header)" } };
  }
  return {
    terminal: { kind: "done" },
    patch: { plan: { goal: plan.goal, steps: plan.steps, done: [], risks: plan.risks }, approvable: true },
  };
}

/** An exception or an abort, as the comment should tell it. */
function failure(error: unknown, signal: AbortSignal): Ending {
  const reason = signal.aborted ? (signal.reason as { kind?: string; by?: string } | undefined) : undefined;
  if (reason?.kind === "cancelled") return { terminal: { kind: "cancelled", by: reason.by } };
  if (reason?.kind === "shutdown") return { terminal: { kind: "failed", reason: "interrupted (crewbot was stopped)" } };
  const message = error instanceof Error ? error.message : String(error);
  return { terminal: { kind: "failed", reason: message.split("\n")[0]!.slice(0, 300) } };
}

export type { JobReport };
