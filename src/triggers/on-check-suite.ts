import type { Context } from "probot";
import { repositoryOf, type RepositoryPayload, type TriggerDeps } from "./deps.js";
import { ciFixJob, decideCheckSuite, pullRefusal, type CheckSuitePayload, type PullData } from "./check-suite.js";

/**
 * A completed check suite: a ci-fix job when it failed on the head of one of crewbot's open pull
 * requests (checked with GitHub: open, same repository, that head). Anything else is logged at
 * debug level and left alone — no GitHub write.
 */
export async function onCheckSuite(context: Context<"check_suite.completed">, deps: TriggerDeps): Promise<void> {
  const payload = context.payload as unknown as CheckSuitePayload;
  const ignore = (reason: string) => deps.log.debug({ deliveryId: context.id, suiteId: payload.check_suite.id, reason }, "check_suite event ignored");
  // The app's id is known wherever Probot runs (APP_ID); its slug is the fallback, asked of GitHub once.
  const decision = decideCheckSuite(payload, deps.appId !== undefined ? { id: deps.appId } : { slug: await deps.appSlug() });
  if (decision.action === "ignore") return ignore(decision.reason);
  const { owner, repo } = context.repo();
  const uncovered = await deps.coverage(payload.installation!.id, repositoryOf(payload as unknown as RepositoryPayload));
  if (uncovered) return deps.log.info({ deliveryId: context.id, owner, repo, reason: uncovered }, "check_suite event on a repository not covered: ignored");
  let pr: PullData;
  try {
    ({ data: pr } = (await context.octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", { owner, repo, pull_number: decision.number })) as { data: PullData });
  } catch (error) {
    const status = (error as { status?: number }).status;
    return deps.log.warn({ deliveryId: context.id, owner, repo, number: decision.number, status }, `check_suite event: pull request #${decision.number} could not be read, no ci-fix: ${(error as Error).message}`);
  }
  const refused = pullRefusal(pr, payload);
  if (refused) return ignore(refused);
  await deps.enqueue(ciFixJob(payload, pr, context.id), context.octokit);
}
