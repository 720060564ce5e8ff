/**
 * GitHub's side of review jobs for the end-to-end review tests: commits on the PR's branch, the
 * check run and the review (checked against the PR's real diff by an independent stand-in).
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import nock from "nock";
import { pullRequestEvent } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { GitHubGraphql } from "../helpers/github-graphql.js";
import { githubReviewProblems } from "../helpers/github-review-check.js";
import { API, mockInstallationToken, mockPermission, mockPullConversation, mockRepoConfig, REPO_PATH, type Stack } from "./harness.js";

export const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i + 1)).join("\n") + "\n";
export const GREET = lines(30, (i) => `const line${i} = ${i};`);
export const OLD_TXT = lines(10, (i) => `text ${i}`);

/** Commits `files` on the remote's `feature` branch (deleting those set to null) and points PR #1 at it. */
export function push(stack: Pick<Stack, "remoteDir">, files: Record<string, string | null>, message: string): Promise<string> {
  return commitOnFeature(
    stack,
    async (dir) => {
      for (const [name, content] of Object.entries(files)) {
        if (content === null) gitSync(dir, "rm", "-q", name);
        else await writeFile(path.join(dir, name), content);
      }
    },
    message,
  );
}

/** Commits what `change` does to the remote's work tree on its `feature` branch and points PR #1 at it. */
export async function commitOnFeature(stack: Pick<Stack, "remoteDir">, change: (dir: string) => Promise<void>, message: string): Promise<string> {
  const dir = stack.remoteDir;
  gitSync(dir, "checkout", "-q", "feature");
  await change(dir);
  gitSync(dir, "add", "-A");
  gitSync(dir, "commit", "-q", "-m", message);
  const sha = gitSync(dir, "rev-parse", "HEAD").trim();
  gitSync(dir, "update-ref", "refs/pull/1/head", sha);
  gitSync(dir, "checkout", "-q", "main");
  return sha;
}

export interface Traffic {
  reviews: any[];
  /** GitHub's GraphQL side: every accepted review's inline comments become crewbot's threads here. */
  graphql?: GitHubGraphql;
  checks: Array<{ method: string; body: any }>;
  rejected: string[][];
}

/** GitHub's side of one automatic review job; reviews are checked against the PR's real diff. */
export function mockReviewJob(
  stack: Pick<Stack, "remoteDir">,
  t: Traffic,
  o: { config?: string; checkId: number; review?: boolean; context?: boolean; rejectFirst?: boolean; cached?: boolean; graphql?: number; queuedWithoutConfig?: boolean },
) {
  // A PR reviewed before: its threads are read (and some resolved) over GraphQL, `graphql` requests in all.
  if (o.graphql) (t.graphql ??= new GitHubGraphql()).intercept(o.graphql);
  // A later job of the same app reuses the installation token and the author's permission.
  if (!o.cached) mockInstallationToken();
  // Read twice: by the trigger (review.auto: whether a job is queued), then by the job — once when
  // queued by a resume, whose job alone reads it.
  if (!o.queuedWithoutConfig) mockRepoConfig({ repo: o.config });
  mockRepoConfig({ repo: o.config });
  const scope = nock(API)
    .post(`${REPO_PATH}/check-runs`, (b) => (t.checks.push({ method: "POST", body: b }), true))
    .reply(201, { id: o.checkId });
  if (o.context !== false) {
    if (!o.cached) mockPermission("Codertocat", "write");
    scope.get(`${REPO_PATH}/issues/1/comments`).query(true).reply(200, []);
    mockPullConversation();
    scope.patch(`${REPO_PATH}/check-runs/${o.checkId}`, (b) => (t.checks.push({ method: "PATCH", body: b }), true)).reply(200, {});
  }
  if (o.review) {
    const diff = gitSync(stack.remoteDir, "diff", "-M", "main...feature");
    let first = true;
    scope
      .post(`${REPO_PATH}/pulls/1/reviews`, (b) => (t.reviews.push(b), true))
      .times(o.rejectFirst ? 2 : 1)
      .reply(() => {
        const problems = githubReviewProblems(diff, t.reviews.at(-1));
        if (o.rejectFirst && first) problems.push("rejected on purpose");
        first = false;
        if (problems.length > 0) {
          t.rejected.push(problems);
          return [422, { message: "Unprocessable Entity", errors: problems }];
        }
        t.graphql?.addReview(t.reviews.at(-1));
        return [200, { id: 700 + t.reviews.length, html_url: `https://github.com/Codertocat/Hello-World/pull/1#pullrequestreview-${700 + t.reviews.length}` }];
      });
  }
  return scope;
}

export async function deliver(stack: Stack, action: "opened" | "synchronize", headSha: string, id: string, extra: Parameters<typeof pullRequestEvent>[1] = { headSha }) {
  return stack.runToEnd("pull_request", pullRequestEvent(action, { ...extra, headSha, cloneUrl: stack.cloneUrl }), id);
}

