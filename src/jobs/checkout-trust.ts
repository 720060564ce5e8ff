/**
 * Whose code a job's checkout holds (DESIGN.md §4), decided here and nowhere else. An issue's job
 * checks out the default branch: the repository's own. A pull request's job checks out its head,
 * a stranger's when the head lives in another repository (a fork, or a fork since deleted). On a
 * stranger's checkout nothing of its code runs: no agent gets `bash`, no `setup` or `check` runs,
 * and no write job runs at all. Unknown is a stranger.
 */
import type { InstallationOctokit } from "../github/types.js";
import type { JobRecord, JobTarget } from "../queue/types.js";
import type { CheckoutTrust } from "../tools/types.js";
import { writesCheckout, type JobType } from "./job-types.js";

export type { CheckoutTrust };

/** `headRepo`: the PR head's `owner/repo` as GitHub gave it; null or "" when the fork is gone. */
export function checkoutTrust(target: Pick<JobTarget, "owner" | "repo" | "isPullRequest">, headRepo: string | null | undefined): CheckoutTrust {
  if (!target.isPullRequest) return "trusted";
  if (!headRepo) return "stranger";
  return headRepo.toLowerCase() === `${target.owner}/${target.repo}`.toLowerCase() ? "trusted" : "stranger";
}

/** What a checkout of this trust allows: its agents' `bash` (and so the network), and the repository's `setup`/`check`. */
export function checkoutPolicy(trust: CheckoutTrust): { bash: boolean; repoCommands: boolean } {
  const trusted = trust === "trusted";
  return { bash: trusted, repoCommands: trusted };
}

export const STRANGER_WRITE_REFUSAL =
  "this pull request comes from a fork: its code is a stranger's, so crewbot runs no write job on it (and can only push to branches of this repository)";

/** Why a job of this type does not run on this checkout at all (a write job on a stranger's), or undefined. */
export function trustRefusal(type: JobType, trust: CheckoutTrust): string | undefined {
  return trust === "stranger" && writesCheckout(type) ? STRANGER_WRITE_REFUSAL : undefined;
}

/** A stranger's code reached a command runner: a bug upstream, refused rather than run. */
export function assertRunsRepoCommands(trust: CheckoutTrust, what: string): void {
  if (!checkoutPolicy(trust).repoCommands) throw new Error(`${what} not run: the checkout is a fork's code, and nothing of a stranger's code runs`);
}

/**
 * The trust of a job's checkout: from the head repository its caller read (`known`, a PR it
 * fetched), else from the job's review record (the webhook's PR), else from GitHub's PR itself.
 * An error asking GitHub fails the job: nothing is cloned on a guess.
 */
export async function resolveCheckoutTrust(job: Pick<JobRecord, "target" | "review">, octokit: InstallationOctokit, known?: string | null): Promise<CheckoutTrust> {
  const { target } = job;
  if (!target.isPullRequest) return "trusted";
  if (known !== undefined) return checkoutTrust(target, known);
  if (job.review) return checkoutTrust(target, job.review.headRepo);
  const { data } = (await octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", { owner: target.owner, repo: target.repo, pull_number: target.number })) as {
    data: { head: { repo: { full_name: string } | null } };
  };
  return checkoutTrust(target, data.head.repo?.full_name ?? null);
}
