import type { Context } from "probot";
import { repositoryOf, type RepositoryPayload, type TriggerDeps } from "./deps.js";
import { decidePullRequestEvent, type AutomaticReviewEvent, type PullRequestPayload } from "./pull-request-event.js";

type PullRequestContext = Context<AutomaticReviewEvent>;

/** A PR opened, reopened, ready or pushed: an automatic review job, queued without a request to GitHub. */
export async function onPullRequest(context: PullRequestContext, deps: TriggerDeps): Promise<void> {
  const decision = decidePullRequestEvent(context.payload as unknown as PullRequestPayload, context.id);
  if (decision.action === "ignore") return deps.log.debug({ deliveryId: context.id, reason: decision.reason }, "pull_request event ignored");
  const { installationId, owner, repo } = decision.job.target;
  const uncovered = await deps.coverage(installationId, repositoryOf(context.payload as unknown as RepositoryPayload));
  if (uncovered) return deps.log.info({ deliveryId: context.id, owner, repo, reason: uncovered }, "pull_request event on a repository not covered: ignored");
  await deps.enqueue(decision.job, context.octokit);
}
