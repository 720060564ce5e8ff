import type { Context } from "probot";
import { canWrite } from "../github/permission.js";
import { renderSlowDown } from "./admission.js";
import { decide, preflight, type CommentPayload } from "./comment-command.js";
import { repositoryOf, slugForMention, type TriggerDeps } from "./deps.js";

type CommentContext = Context<"issue_comment.created"> | Context<"pull_request_review_comment.created">;

/**
 * A new comment: guard (a bot, no command, a redelivery, a repository no longer covered), read
 * the commenter's permission (the one request the handler awaits, remembered briefly), take a
 * token of the commenter's rate limit, then act — enqueueing is local, replies are written in the
 * background, so GitHub gets its answer in milliseconds.
 */
export async function onComment(context: CommentContext, deps: TriggerDeps): Promise<void> {
  const payload = context.payload as unknown as CommentPayload;
  const kind = context.name === "pull_request_review_comment" ? "review_comment" : "issue_comment";
  // The slug is looked up (once, then remembered) only for a comment that may start with a mention.
  const pre = preflight(payload, await slugForMention(deps, payload.comment.body, context.id));
  if (!pre.go) return deps.log.debug({ deliveryId: context.id, reason: pre.reason }, "comment ignored");
  // Checked synchronously inside newDelivery: the same delivery twice at once passes here once.
  if (!(await deps.admission.newDelivery(context.id))) return deps.log.info({ deliveryId: context.id }, "redelivered comment dropped");
  try {
    const { owner, name } = { owner: payload.repository.owner.login, name: payload.repository.name };
    const installationId = payload.installation!.id;
    const uncovered = await deps.coverage(installationId, repositoryOf(payload));
    if (uncovered) return deps.log.info({ deliveryId: context.id, owner, repo: name, reason: uncovered }, "comment on a repository not covered: ignored");
    if (pre.command.mention && !(await deps.repoConfig(context.octokit, owner, name)).triggers.mention) return deps.log.info({ deliveryId: context.id, owner, repo: name }, "mention of the app: triggers.mention is off");

    // Read for help too: a writer is always answered, anyone else once an hour (DESIGN §1).
    const permission = await deps.permissions.get(context.octokit, owner, name, pre.login);
    const writer = canWrite(permission);
    const decision = decide(payload, pre, permission, context.id, kind);
    // Stopping work is never rate-limited; everything else that writes or queues is.
    const verdict = decision.action === "cancel" ? "go" : await deps.admission.take(installationId, pre.login);
    if (verdict === "drop") return deps.log.info({ deliveryId: context.id, login: pre.login }, "rate-limited again: ignored");
    if (verdict === "slow-down") {
      const body = renderSlowDown(pre.login, await deps.admission.waitSeconds(installationId, pre.login), deps.admission.limit);
      return await deps.act({ action: "reply", body, reason: "rate limited" }, context.octokit, payload, writer);
    }
    await deps.act(decision, context.octokit, payload, writer);
  } catch (error) {
    await deps.admission.forget(context.id); // GitHub's redelivery of a failed delivery is handled again
    throw error;
  }
}
