import type { Context } from "probot";
import { repositoryOf, type RepositoryPayload, type TriggerDeps } from "./deps.js";
import { decidePullRequestEvent, reviewTurnedOff, type AutomaticReviewEvent, type PullRequestPayload } from "./pull-request-event.js";

type PullRequestContext = Context<AutomaticReviewEvent>;

/**
 * A PR opened, reopened, ready or pushed: an automatic review job, unless the repository's config
 * turns automatic reviews off. The config is read afresh, not the minute-old copy the other
 * triggers use: `review.auto` turned on counts from the next push, as it did when only the job read it.
 */
export async function onPullRequest(context: PullRequestContext, deps: TriggerDeps): Promise<void> {
  const decision = decidePullRequestEvent(context.payload as unknown as PullRequestPayload, context.id);
  if (decision.action === "ignore") return deps.log.debug({ deliveryId: context.id, reason: decision.reason }, "pull_request event ignored");
  const { installationId, owner, repo, number } = decision.job.target;
  const uncovered = await deps.coverage(installationId, repositoryOf(context.payload as unknown as RepositoryPayload));
  if (uncovered) return deps.log.info({ deliveryId: context.id, owner, repo, reason: uncovered }, "pull_request event on a repository not covered: ignored");
  const off = reviewTurnedOff(await deps.repoConfig(context.octokit, owner, repo, { fresh: true }));
  if (off) return deps.log.info({ deliveryId: context.id, owner, repo, number, reason: off }, "pull_request event: no review job");
  await deps.enqueue(decision.job, context.octokit);
}
