import type { Context } from "probot";
import { repositoryOf, type RepositoryPayload, type TriggerDeps } from "./deps.js";
import { decidePullRequestEnd, type PullRequestPayload } from "./pull-request-event.js";

/**
 * A pull request merged or closed: the ends of crewbot's findings there are kept for the
 * repository's figures (jobs/pull-request-end.ts), once per delivery. A redelivery after a failure
 * is handled again.
 */
export async function onPullRequestClosed(context: Context<"pull_request.closed">, deps: TriggerDeps): Promise<void> {
  const decision = decidePullRequestEnd(context.payload as unknown as PullRequestPayload, context.id);
  if (decision.action === "ignore") return deps.log.debug({ deliveryId: context.id, reason: decision.reason }, "pull_request.closed ignored");
  const { installationId, owner, repo, number } = decision.end;
  const uncovered = await deps.coverage(installationId, repositoryOf(context.payload as unknown as RepositoryPayload));
  if (uncovered) return deps.log.info({ deliveryId: context.id, owner, repo, reason: uncovered }, "pull_request.closed on a repository not covered: ignored");
  if (!(await deps.admission.newDelivery(context.id))) return deps.log.info({ deliveryId: context.id, owner, repo, number }, "pull_request.closed redelivered: already recorded");
  try {
    const what = await deps.pullRequestEnded(decision.end, context.octokit);
    deps.log.info({ deliveryId: context.id, owner, repo, number, merged: decision.end.merged }, `pull request ended: ${what}`);
  } catch (error) {
    await deps.admission.forget(context.id);
    throw error;
  }
}
