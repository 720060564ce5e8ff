import type { Context } from "probot";
import { canWrite } from "../github/permission.js";
import { detectApproval, type CommentEditedPayload } from "../plan/approval.js";
import { jobGround, type CommentPayload, type Decision } from "./comment-command.js";
import { detectTick, type TickAnswer } from "./question-answer.js";
import { repositoryOf, type TriggerDeps } from "./deps.js";

/**
 * An edited comment: only the approval box of a finished `/plan` going from `[ ]` to `[x]`, ticked
 * by someone with write permission, starts anything — `/implement` with exactly that plan.
 */
export async function onCommentEdited(context: Context<"issue_comment.edited">, deps: TriggerDeps): Promise<void> {
  const payload = context.payload as unknown as CommentEditedPayload & CommentPayload;
  const slug = await deps.appSlug();
  const approval = detectApproval(payload, slug);
  if (!approval.approved) {
    const tick = detectTick(payload, slug);
    if (tick.answered) return onQuestionTick(context, deps, payload, tick);
    return deps.log.debug({ deliveryId: context.id, reason: approval.reason, question: tick.reason }, "edit ignored");
  }
  if (!(await deps.admission.newDelivery(context.id))) return deps.log.info({ deliveryId: context.id }, "redelivered edit dropped");
  try {
    const { owner, name } = { owner: payload.repository.owner.login, name: payload.repository.name };
    const uncovered = await deps.coverage(payload.installation!.id, repositoryOf(payload));
    if (uncovered) return deps.log.info({ deliveryId: context.id, owner, repo: name, reason: uncovered }, "approval on a repository not covered: ignored");
    const permission = await deps.permissions.get(context.octokit, owner, name, approval.by);
    if (!canWrite(permission)) {
      return deps.log.info({ deliveryId: context.id, login: approval.by }, "approval ticked by someone without write access: nothing started");
    }
    await deps.act(approvalDecision(payload, approval), context.octokit, payload, true);
  } catch (error) {
    await deps.admission.forget(context.id);
    throw error;
  }
}

/** A ticked option of crewbot's question comment: by a writer, it answers the waiting job (once). */
async function onQuestionTick(
  context: Context<"issue_comment.edited">,
  deps: TriggerDeps,
  payload: CommentEditedPayload & CommentPayload,
  tick: Extract<TickAnswer, { answered: true }>,
): Promise<void> {
  if (!(await deps.admission.newDelivery(context.id))) return deps.log.info({ deliveryId: context.id }, "redelivered edit dropped");
  try {
    const { owner, name } = { owner: payload.repository.owner.login, name: payload.repository.name };
    const uncovered = await deps.coverage(payload.installation!.id, repositoryOf(payload));
    if (uncovered) return deps.log.info({ deliveryId: context.id, jobId: tick.jobId, reason: uncovered }, "answer on a repository not covered: ignored");
    const permission = await deps.permissions.get(context.octokit, owner, name, tick.by);
    if (!canWrite(permission)) {
      return deps.log.info({ deliveryId: context.id, jobId: tick.jobId, login: tick.by }, "question ticked by someone without write access: nothing resumed");
    }
    await deps.act({ action: "answer", by: tick.by, jobId: tick.jobId, option: tick.option }, context.octokit, payload, true);
  } catch (error) {
    await deps.admission.forget(context.id);
    throw error;
  }
}

/** Pure: the implement job an approval makes (one per plan: the delivery id is the plan's job). */
export function approvalDecision(
  payload: CommentPayload,
  approval: Extract<ReturnType<typeof detectApproval>, { approved: true }>,
): Decision {
  const issue = payload.issue!;
  if (issue.pull_request) {
    return {
      action: "reply",
      body: "Implementing an approved plan on a pull request is not available in this version of crewbot yet; comment `/implement <what to change>` on the pull request instead.",
      reason: "approval on a pull request",
    };
  }
  return {
    action: "approve",
    planCommentId: approval.commentId,
    planBody: payload.comment.body,
    by: approval.by,
    job: {
      ...jobGround(payload, false),
      deliveryId: `approval:${approval.jobId}`,
      kind: "implement",
      trigger: { sender: approval.by, senderId: (payload.sender as { id?: number }).id, request: "" },
      approvedPlan: { planJobId: approval.jobId, steps: approval.plan },
    },
  };
}
