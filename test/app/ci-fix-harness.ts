/** What the ci-fix tests share: crewbot's pull request #2 as GitHub answers it, and its branch in the stand-in remote. */
import { gitSync } from "../helpers/git-repo.js";
import type { Stack } from "./harness.js";

export const BRANCH = "crewbot/issue-1-greet";

/** The pull request as `GET …/pulls/2` answers: crewbot's, open, from its branch of this repository. */
export function pull(sha: string, o: { state?: string; ref?: string; headRepo?: string } = {}) {
  return {
    number: 2,
    state: o.state ?? "open",
    title: "Greet with hi",
    body: "Closes #1",
    user: { login: "crewbot[bot]", type: "Bot" },
    head: { ref: o.ref ?? BRANCH, sha, repo: { full_name: o.headRepo ?? "Codertocat/Hello-World" } },
    base: { ref: "main", sha: "b".repeat(40), repo: { full_name: "Codertocat/Hello-World" } },
  };
}

export async function crewbotBranch(stack: Stack): Promise<string> {
  gitSync(stack.remoteDir, "branch", BRANCH);
  gitSync(stack.remoteDir, "update-ref", "refs/pull/2/head", BRANCH);
  return gitSync(stack.remoteDir, "rev-parse", BRANCH).trim();
}


/** Renovate's branch of the bot-branch tests. */
export const RENOVATE_BRANCH = "renovate/lodash-4.x";

/** Renovate's pull request #2 as `GET …/pulls/2` answers: open, from its branch of this repository (or a fork's). */
export function renovatePull(sha: string, o: { headRepo?: string } = {}) {
  return {
    ...pull(sha, { ref: RENOVATE_BRANCH, ...o }),
    title: "Update dependency lodash to v4.17.21",
    body: "This PR contains the following updates: lodash 4.17.20 → 4.17.21",
    user: { login: "renovate[bot]", type: "Bot" },
  };
}

/** Renovate's branch in the stand-in remote, as the head of pull request #2; returns its commit. */
export async function renovateBranch(stack: Stack): Promise<string> {
  gitSync(stack.remoteDir, "branch", RENOVATE_BRANCH);
  gitSync(stack.remoteDir, "update-ref", "refs/pull/2/head", RENOVATE_BRANCH);
  return gitSync(stack.remoteDir, "rev-parse", RENOVATE_BRANCH).trim();
}
