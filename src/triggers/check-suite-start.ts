/**
 * A failed suite that may be crewbot's business (check-suite.ts said "verify"), checked before any
 * job exists: the installation still covers the repository; a branch that is not crewbot's own
 * matches the repository's `implement.ciFix.branches` (read from the default branch, remembered
 * briefly); GitHub's current pull request is open, of this repository, at that head. Then the
 * ci-fix job is queued. Each no is a log line, never a GitHub write.
 */
import type { Context } from "probot";
import type { PullData } from "../github/types.js";
import { ciFixBranchRefusal, isCrewbotBranch } from "../jobs/ci-fix-branches.js";
import { ciFixJob, pullRefusal, type CheckSuiteDecision, type CheckSuitePayload } from "./check-suite.js";
import { repositoryOf, type RepositoryPayload, type TriggerDeps } from "./deps.js";

type Verify = Extract<CheckSuiteDecision, { action: "verify" }>;

export async function startCiFix(context: Context<"check_suite.completed">, deps: TriggerDeps, payload: CheckSuitePayload, decision: Verify): Promise<void> {
  const { owner, repo } = context.repo();
  const ids = { deliveryId: context.id, owner, repo, suiteId: payload.check_suite.id };
  const uncovered = await deps.coverage(payload.installation!.id, repositoryOf(payload as unknown as RepositoryPayload));
  if (uncovered) return deps.log.info({ ...ids, reason: uncovered }, "check_suite event on a repository not covered: ignored");
  // crewbot's own branches count without a config read; any other costs one (remembered per repository).
  const branches = isCrewbotBranch(decision.branch) ? [] : (await deps.repoConfig(context.octokit, owner, repo)).implement.ciFix.branches;
  const unlisted = ciFixBranchRefusal({ ref: decision.branch, sameRepository: true }, branches);
  if (unlisted) return deps.log.debug({ ...ids, reason: unlisted }, "check_suite event ignored");
  let pr: PullData;
  try {
    ({ data: pr } = (await context.octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", { owner, repo, pull_number: decision.number })) as { data: PullData });
  } catch (error) {
    const status = (error as { status?: number }).status;
    return deps.log.warn({ ...ids, number: decision.number, status }, `check_suite event: pull request #${decision.number} could not be read, no ci-fix: ${(error as Error).message}`);
  }
  const refused = pullRefusal(pr, payload, branches);
  if (refused) return deps.log.debug({ ...ids, reason: refused }, "check_suite event ignored");
  await deps.enqueue(ciFixJob(payload, pr, context.id), context.octokit);
}
