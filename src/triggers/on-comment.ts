import type { Context } from "probot";
import { decide, preflight, type CommentPayload } from "./comment-command.js";
import type { TriggerDeps } from "./deps.js";

type CommentContext = Context<"issue_comment.created"> | Context<"pull_request_review_comment.created">;

/**
 * A new comment: guard, read the commenter's permission (the one request the handler awaits),
 * then act — enqueueing is local, replies are written in the background, so GitHub gets its
 * answer in milliseconds.
 */
export async function onComment(context: CommentContext, deps: TriggerDeps): Promise<void> {
  const payload = context.payload as unknown as CommentPayload;
  const kind = context.name === "pull_request_review_comment" ? "review_comment" : "issue_comment";
  const pre = preflight(payload);
  if (!pre.go) return deps.log.debug({ deliveryId: context.id, reason: pre.reason }, "comment ignored");

  const { owner, name } = { owner: payload.repository.owner.login, name: payload.repository.name };
  const permission = pre.command.kind === "help" ? undefined : await deps.permissions.get(context.octokit, owner, name, pre.login);
  await deps.act(decide(payload, pre, permission, context.id, kind), context.octokit, payload);
}
