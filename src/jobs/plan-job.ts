import type { Budgets } from "../agent/budget.js";
import { planOf } from "../plan/plan-result.js";
import type { ChainResult } from "../chain/run-chain.js";
import type { JobContext, JobResult } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import { chainFailure, jobTask, type Ending } from "./outcome.js";
import { inJobFrame, runJobChain } from "./job-frame.js";
import { prepareJob } from "./prepare.js";
import { askOptions, askRequester, beginResume, endWait, nextRun } from "./question-wait.js";
import type { JobServices } from "./services.js";

/**
 * `/plan`: scout → planner, read-only, on a fresh checkout (the default branch for an issue, the
 * head for a PR), with agents, prompts and instructions from the default branch. The progress
 * comment becomes the plan as a task list ending with the approval checkbox.
 */
export async function runPlanJob(job: JobRecord, ctx: JobContext, services: JobServices): Promise<JobResult> {
  return inJobFrame(job, ctx, services, async (report, dirs, access) => {
    const next = nextRun(job);
    if (next.kind === "no-answer" || next.kind === "still-waiting") return endWait(job, report, next);
    beginResume(job, report, next, services.observe.log);
    // Going on after an answer: the same commit as before the question, on a fresh checkout.
    const prepared = await prepareJob(job, { access, report }, services, dirs, next.kind === "resume" ? { ref: next.saved.sha } : {});
    const { result, budget } = await runJobChain(ctx, services, report, prepared, dirs, {
      chain: prepared.chains.get("plan")!,
      task: jobTask(job, "Make a plan for"),
      ...askOptions(prepared.policy, next),
    });
    if (result.paused) {
      const questionsAsked = next.kind === "resume" ? next.saved.questionsAsked : 0;
      return askRequester(job, report, prepared.policy, { result, budget, sha: prepared.sha, questionsAsked });
    }
    return report.finish(planOutcome(result, ctx.signal, budget.limits));
  });
}

function planOutcome(result: ChainResult, signal: AbortSignal, limits: Budgets): Ending {
  const failed = chainFailure(result, signal, limits);
  if (failed) return failed;
  // The planner's own step: its submit_plan call, or its text (the chain already refused one with no plan).
  const planner = result.steps.findLast((step) => step.role === "planner") ?? { text: result.output };
  const plan = planOf(planner);
  if (plan.steps.length === 0) {
    return { terminal: { kind: "failed", reason: 'the planner gave no plan (no submit_plan call, and no numbered list under a heading containing "plan")' } };
  }
  return {
    terminal: { kind: "done" },
    patch: { plan: { goal: plan.goal, steps: plan.steps, done: [], risks: plan.risks }, approvable: true },
  };
}
