/**
 * A review's first look (review/first-look.ts) where its level and the operator's first-look
 * model call for one. Its cost opens the review's budget; a failed first look is logged and the
 * review goes on as if there had been none.
 */
import { BudgetTracker } from "../agent/budget.js";
import { firstLookRuns, reviewerShape, type ReviewerShape } from "../review/effort.js";
import { afterFirstLook, firstLook, type AfterFirstLook } from "../review/first-look.js";
import type { Selection } from "../review/select-files.js";
import type { ContextSection } from "../text/prompt.js";
import type { Prepared } from "./prepare.js";
import type { PullRequestRun } from "./pull-request-run.js";

export interface ReviewTriage extends Omit<AfterFirstLook, "triage"> {
  budget: BudgetTracker;
  shape: (ownMaxTurns: number | undefined) => ReviewerShape;
}

export async function triageReview(run: PullRequestRun, prepared: Prepared, selected: Selection, overview: ContextSection): Promise<ReviewTriage> {
  const { effort } = run.config.review;
  const model = run.services.runtime.firstLookModel;
  const budget = new BudgetTracker(prepared.policy.budgets);
  const runs = firstLookRuns(effort, model) && selected.reviewed.length > 0;
  const look = runs ? await firstLook({ client: run.services.runtime.anthropic(), model, files: selected.reviewed, context: [...prepared.context, overview], budget, signal: run.ctx.signal }) : undefined;
  if (look && "failed" in look) run.services.observe.log.warn(`job ${run.job.id}: ${look.failed}; the review goes on without it`);
  const { triage, ...after } = afterFirstLook(effort, selected, look);
  return { ...after, budget, shape: (own) => reviewerShape(effort, own, triage, model) };
}
