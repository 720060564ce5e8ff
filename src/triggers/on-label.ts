import type { Context } from "probot";
import { canWrite } from "../github/permission.js";
import { renderSlowDown } from "./admission.js";
import type { CommentPayload } from "./comment-command.js";
import { repositoryOf, type TriggerDeps } from "./deps.js";
import { decideLabel, labelCommand, type LabelPayload } from "./label-event.js";

/**
 * A label added to an issue: guard (another label, our own app, a redelivery, a repository no
 * longer covered), read the label names of the repository's config and the labeler's permission,
 * take a token of their rate limit, then act as a command would.
 */
export async function onLabeled(context: Context<"issues.labeled">, deps: TriggerDeps): Promise<void> {
  const payload = context.payload as unknown as LabelPayload;
  const { login } = payload.sender;
  if (!payload.label || !payload.installation) return deps.log.debug({ deliveryId: context.id }, "label ignored");
  // Synchronous, before any await: the same delivery twice at once passes here once.
  if (!(await deps.admission.newDelivery(context.id))) return deps.log.info({ deliveryId: context.id }, "redelivered label dropped");
  const [owner, repo] = [payload.repository.owner.login, payload.repository.name];
  try {
    if (login === `${await deps.appSlug()}[bot]`) return deps.log.debug({ deliveryId: context.id }, "our own label");
    const kind = labelCommand(payload.label.name, (await deps.repoConfig(context.octokit, owner, repo)).triggers.labels);
    if (!kind) return deps.log.debug({ deliveryId: context.id, label: payload.label.name }, "not a crewbot label");
    const uncovered = await deps.coverage(payload.installation.id, repositoryOf(payload));
    if (uncovered) return deps.log.info({ deliveryId: context.id, owner, repo, reason: uncovered }, "label on a repository not covered: ignored");
    const permission = payload.sender.type === "Bot" ? undefined : await deps.permissions.get(context.octokit, owner, repo, login);
    const verdict = await deps.admission.take(payload.installation.id, login);
    if (verdict === "drop") return deps.log.info({ deliveryId: context.id, login }, "rate-limited again: ignored");
    const as = payload as unknown as CommentPayload;
    const writer = permission !== undefined && canWrite(permission);
    if (verdict === "slow-down") return await deps.act({ action: "reply", body: renderSlowDown(login, await deps.admission.waitSeconds(payload.installation.id, login), deps.admission.limit), reason: "rate limited" }, context.octokit, as, writer);
    await deps.act(decideLabel(payload, kind, permission, context.id), context.octokit, as, writer);
  } catch (error) {
    await deps.admission.forget(context.id); // GitHub's redelivery of a failed delivery is handled again
    throw error;
  }
}
