/**
 * The part every write job shares (`/implement`, an approved plan, PR feedback): the setup
 * commands, the chain with the worker's steps committed as they finish (and the reviewer given
 * the committed diff), the last commit, then the check commands on the committed work.
 */
import type { BudgetTracker } from "../agent/budget.js";
import type { ContextSection } from "../text/prompt.js";
import type { ChainDefinition } from "../chain/types.js";
import type { PlanStep } from "../plan/types.js";
import type { CommandSummary } from "../report/render-commands.js";
import type { JobContext } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import type { JobDirs } from "./job-dirs.js";
import type { JobAccess, JobReport } from "./job-report.js";
import { chainFailure, type Ending } from "./outcome.js";
import { runJobChain, type JobChainOptions } from "./job-frame.js";
import type { Prepared } from "./prepare.js";
import type { ChainResult } from "../chain/run-chain.js";
import { RepoChecks } from "./repo-checks.js";
import type { JobServices } from "./services.js";
import { StepCommits } from "./step-commits.js";
import { commandsRefusal, runsUnsandboxed, UNSANDBOXED_NOTE } from "../tools/sandbox-policy.js";

export interface WriteRunOptions {
  chain: ChainDefinition;
  task: string;
  /** The message of what the worker changed without reporting a step (and of what the reviewer sees first). */
  restMessage: string;
  /** An approved plan: the steps the worker ticks, known before it starts. */
  plan?: PlanStep[];
  /** `ask_user` for the steps before the worker, a resume after an answer, and the budget used before it. */
  asking?: Pick<JobChainOptions, "questions" | "resume" | "budget">;
}

export type WriteRun =
  | { setupFailed: Ending }
  | {
      setupFailed?: undefined;
      /** A step before the worker asked the requester (only with `asking`): nothing was written or checked, the job waits. */
      paused?: { result: ChainResult; budget: BudgetTracker };
      work: StepCommits;
      checks: RepoChecks;
      /** The job's notes (refused workflow files, files setup changed). */
      notes: string[];
      budget: BudgetTracker;
      /** The chain did not finish (error, budget, cancel). */
      failed?: Ending;
      /** The first check command that failed, as a terminal reason. */
      checkFailed?: string;
    };

/** What the worker is told about the commands that will judge its work (the repository's `implement.check`). */
export function checkCommandsSection(commands: readonly string[]): ContextSection {
  const text =
    commands.length === 0
      ? "This repository configures no check commands: verify your work with the repository's own tests, type-checker and linter."
      : `After you finish, crewbot runs these commands on your committed work; the job fails if one of them fails:\n${commands.map((c) => `- \`${c}\``).join("\n")}`;
  return { source: "the check commands (implement.check in .github/crewbot.yml)", text };
}

/** The check commands' results on the committed work, for a reviewer; commands after a failed one do not run. */
export function checkResultsSection(commands: readonly string[], results: readonly CommandSummary[]): ContextSection {
  const ran = results.map((r) => `${r.ok ? "passed" : "FAILED"}: ${r.command} (${r.status})${r.tail.trim() ? `\n${r.tail.trimEnd()}` : ""}`);
  const skipped = commands.slice(results.length).map((c) => `not run (an earlier check failed): ${c}`);
  const text = commands.length === 0 ? "No check commands are configured for this repository." : [...ran, ...skipped].join("\n\n");
  return { source: "the check commands' results on the committed changes", text };
}

export async function runWriteChain(
  job: JobRecord,
  ctx: JobContext,
  services: JobServices,
  { report, access }: { report: JobReport; access: JobAccess },
  prepared: Prepared,
  dirs: JobDirs,
  options: WriteRunOptions,
): Promise<WriteRun> {
  // No sandbox, no commands: refused before anything runs, so nothing is pushed either.
  const sandbox = await services.runtime.sandbox();
  const { implement, sandbox: sandboxConfig } = prepared.config;
  const refusal = commandsRefusal(sandbox, { network: implement.setup.length > 0 || sandboxConfig.network });
  if (refusal !== undefined) {
    services.observe.log.warn(`job ${job.id}: not run: ${refusal.reason}; ${refusal.remedy}`);
    return { setupFailed: { terminal: { kind: "failed", reason: refusal.reason }, patch: { notes: [refusal.remedy] } } };
  }
  const notes: string[] = [...prepared.notes]; // what the checkout lacks (submodules, LFS) comes first
  if (runsUnsandboxed(sandbox)) {
    services.observe.log.warn(`job ${job.id}: ${UNSANDBOXED_NOTE}`);
    report.event({ type: "log", level: "warn", message: UNSANDBOXED_NOTE });
    notes.push(UNSANDBOXED_NOTE);
  }
  const checks = new RepoChecks(ctx, report, prepared, dirs, services.runtime, notes);
  const setupFailed = await checks.setup();
  if (setupFailed) return { setupFailed };

  const allowWorkflowEdits = prepared.config.implement.allowWorkflowEdits;
  const author = await services.github.botIdentity(access.octokit);
  const work = new StepCommits({ job, report, secrets: [access.token], checkout: prepared.root, author, allowWorkflowEdits, notes, noreplyDomain: services.github.noreplyDomain });
  if (options.plan) work.usePlan({ steps: options.plan, filesToModify: [] });

  const { result, budget } = await runJobChain(ctx, services, report, prepared, dirs, {
    chain: options.chain,
    task: options.task,
    observe: (event) => work.observe(event),
    betweenTurns: (step) => (step.role === "worker" ? () => work.commitFinished() : undefined),
    completeStep: (step) => (step.role === "worker" && work.numberedPlan ? (n, note) => work.completeStep(n, note) : undefined),
    stepContext: async (step) => {
      if (step.role === "worker") return [checkCommandsSection(implement.check)];
      if (step.role !== "reviewer") return [];
      // The reviewer judges the committed work together with what the checks say about it.
      const diff = await work.reviewContext(prepared.sha, options.restMessage);
      return [...diff, checkResultsSection(implement.check, await checks.preview())];
    },
    ...options.asking,
  });
  if (result.paused) return { work, checks, notes, budget, paused: { result, budget } };
  await work.commitRest(work.reviewed ? "Address the review's findings" : options.restMessage);

  const failed = chainFailure(result, ctx.signal, budget.limits);
  const checkFailed = !failed && work.shas.length > 0 ? await checks.check() : undefined;
  return { work, checks, notes, budget, failed, checkFailed };
}
