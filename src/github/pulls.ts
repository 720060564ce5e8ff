import type { InstallationOctokit } from "./types.js";

/** A pull request's head as a job checks it out. */
export interface PullRequestHead {
  headSha: string;
  baseRef: string;
  /** `owner/repo` of the head (null: a fork since deleted): it decides the checkout's trust (jobs/checkout-trust.ts). */
  headRepo: string | null;
}

/** The pull request as it is now (for a command, which names no commit). */
export async function pullRequestHead(octokit: InstallationOctokit, pull: { owner: string; repo: string; number: number }): Promise<PullRequestHead> {
  const { owner, repo, number } = pull;
  const { data } = (await octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", { owner, repo, pull_number: number })) as {
    data: { head: { sha: string; repo: { full_name: string } | null }; base: { ref: string } };
  };
  return { headSha: data.head.sha, baseRef: data.base.ref, headRepo: data.head.repo?.full_name ?? null };
}
