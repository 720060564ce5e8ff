/**
 * "Update branch": the base merged into a reviewed pull request. The next automatic review is
 * incremental and holds none of the base's changes — not in what the reviewer reads, not inline.
 * Real repositories served over HTTP; GitHub's review rules checked by the independent stand-in.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import nock from "nock";
import { describe, expect, it } from "vitest";
import { pullRequestEvent } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { GitHubGraphql } from "../helpers/github-graphql.js";
import { githubReviewProblems } from "../helpers/github-review-check.js";
import { API, mockInstallationToken, mockPermission, mockPullConversation, mockRepoConfig, REPO_PATH, startStack, type Stack } from "./harness.js";

useNock();

const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i + 1)).join("\n") + "\n";
const APP = lines(40, (i) => `const v${i} = ${i};`);
const swap = (text: string, pairs: Array<[string, string]>) => pairs.reduce((t, [from, to]) => t.replace(from, to), text);

async function commitOn(stack: Stack, branch: string, files: Record<string, string>, message: string): Promise<string> {
  const dir = stack.remoteDir;
  gitSync(dir, "checkout", "-q", branch);
  for (const [name, content] of Object.entries(files)) await writeFile(path.join(dir, name), content);
  gitSync(dir, "add", "-A");
  gitSync(dir, "commit", "-q", "-m", message);
  return gitSync(dir, "rev-parse", "HEAD").trim();
}

/** GitHub's side of one automatic review: check run, context, and the review checked against the PR's diff now. */
function mockReview(stack: Stack, checkId: number, reviews: any[], checks: any[], o: { first: boolean }) {
  if (o.first) {
    mockInstallationToken();
    mockPermission("Codertocat", "write");
  } else new GitHubGraphql().intercept(1); // crewbot's threads, read once the PR was reviewed before (none here)
  // Read twice: by the trigger (review.auto: whether a job is queued), then by the job.
  mockRepoConfig({ repo: "review:\n  debounceSeconds: 0\n" });
  mockRepoConfig({ repo: "review:\n  debounceSeconds: 0\n" });
  const diff = gitSync(stack.remoteDir, "diff", "-M", "main...feature");
  nock(API)
    .post(`${REPO_PATH}/check-runs`, (b) => (checks.push(b), true))
    .reply(201, { id: checkId })
    .get(`${REPO_PATH}/issues/1/comments`)
    .query(true)
    .reply(200, [])
    .patch(`${REPO_PATH}/check-runs/${checkId}`, (b) => (checks.push(b), true))
    .reply(200, {})
    .post(`${REPO_PATH}/pulls/1/reviews`, (b) => (reviews.push(b), true))
    .reply(() => {
      const problems = githubReviewProblems(diff, reviews.at(-1));
      if (problems.length > 0) return [422, { message: "Unprocessable Entity", errors: problems }];
      return [200, { id: 900 + reviews.length, html_url: `https://github.com/Codertocat/Hello-World/pull/1#pullrequestreview-${900 + reviews.length}` }];
    });
  mockPullConversation();
}

describe("an incremental review after the base was merged into the pull request", () => {
  it("reviews only the pull request's own new change: the base's files and lines are neither read nor commented on", async () => {
    const stack = await startStack(
      [
        { text: "## Warnings\n- app.js:5 - `v5` needs a name.\n## Summary\nOne." },
        {
          text: [
            "## Warnings",
            "- app.js:12 - `v12` is now negative.",
            "- app.js:30 - the base's line.",
            "- base.js:1 - a file only the base changed.",
            "## Summary",
            "Second look.",
          ].join("\n"),
        },
      ],
      { files: { "app.js": APP, "README.md": "# Hello\n" } },
    );
    gitSync(stack.remoteDir, "branch", "feature");
    const first = await commitOn(stack, "feature", { "app.js": swap(APP, [["v5 = 5", "v5 = 55"]]) }, "the PR's first change");
    gitSync(stack.remoteDir, "update-ref", "refs/pull/1/head", first);
    const reviews: any[] = [];
    const checks: any[] = [];
    mockReview(stack, 801, reviews, checks, { first: true });
    const job1 = await stack.runToEnd("pull_request", pullRequestEvent("opened", { headSha: first, cloneUrl: stack.cloneUrl }), "ub-opened");
    expect(job1.outcome).toBe("✅ Done · 0 critical · 1 warning · 0 suggestions");

    // The base moves on, "Update branch" merges it into the PR, then the PR gets one more commit.
    await commitOn(stack, "main", { "app.js": swap(APP, [["v30 = 30", "v30 = 3000"]]), "base.js": "export const fromBase = true;\n" }, "the base moves on");
    gitSync(stack.remoteDir, "checkout", "-q", "feature");
    gitSync(stack.remoteDir, "-c", "user.name=T", "-c", "user.email=t@example.com", "merge", "-q", "--no-edit", "main");
    const head = await commitOn(stack, "feature", { "app.js": swap(APP, [["v5 = 5", "v5 = 55"], ["v30 = 30", "v30 = 3000"], ["v12 = 12", "v12 = -12"]]) }, "the PR's second change");
    gitSync(stack.remoteDir, "update-ref", "refs/pull/1/head", head);
    gitSync(stack.remoteDir, "checkout", "-q", "main");
    checks.length = 0;
    mockReview(stack, 802, reviews, checks, { first: false });

    const job2 = await stack.runToEnd("pull_request", pullRequestEvent("synchronize", { headSha: head, cloneUrl: stack.cloneUrl }), "ub-sync");

    expect(job2.outcome).toBe("✅ Done · 0 critical · 3 warnings · 0 suggestions");
    const read = JSON.stringify(stack.fake.requests[1]!.body.messages);
    expect(read).toContain("since the last review");
    expect(read).toContain("+const v12 = -12;");
    expect(read).not.toContain("+const v30 = 3000;");
    expect(read).not.toContain("fromBase");
    expect(read).toContain("The new commits merge the base branch; its changes are not part of this pull request and are left out of the diff above (2 changed lines in files the pull request changes are shown as unchanged context, if at all). Files only the base branch changed: base.js.");
    // Inline only on the PR's own new line; the base's line and file go to the body.
    const review = reviews[1];
    expect(review.comments.map((c: any) => [c.path, c.side, c.line])).toEqual([["app.js", "RIGHT", 12]]);
    expect(review.body).toContain("app.js:30");
    expect(review.body).toContain("base.js:1");
    expect(checks.at(-1).output.summary).toContain(`Incremental review: the commits ${first.slice(0, 7)}..${head.slice(0, 7)} since the last review.`);
  });

  it("a push that only merges the base is not reviewed: nothing new of the pull request's own", async () => {
    const stack = await startStack([{ text: "## Summary\nFine." }], { files: { "app.js": APP } });
    gitSync(stack.remoteDir, "branch", "feature");
    const first = await commitOn(stack, "feature", { "app.js": swap(APP, [["v5 = 5", "v5 = 55"]]) }, "the PR's change");
    gitSync(stack.remoteDir, "update-ref", "refs/pull/1/head", first);
    const reviews: any[] = [];
    const checks: any[] = [];
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    // Read twice: by the trigger (review.auto: whether a job is queued), then by the job.
    mockRepoConfig({ repo: "review:\n  debounceSeconds: 0\n" });
    mockRepoConfig({ repo: "review:\n  debounceSeconds: 0\n" });
    nock(API)
      .post(`${REPO_PATH}/check-runs`, (b) => (checks.push(b), true))
      .reply(201, { id: 811 })
      .get(`${REPO_PATH}/issues/1/comments`)
      .query(true)
      .reply(200, [])
      .patch(`${REPO_PATH}/check-runs/811`, (b) => (checks.push(b), true))
      .reply(200, {});
    mockPullConversation();
    expect((await stack.runToEnd("pull_request", pullRequestEvent("opened", { headSha: first, cloneUrl: stack.cloneUrl }), "ub2-opened")).outcome).toBe("✅ Done · no findings");

    await commitOn(stack, "main", { "app.js": swap(APP, [["v30 = 30", "v30 = 3000"]]) }, "the base moves on");
    gitSync(stack.remoteDir, "checkout", "-q", "feature");
    gitSync(stack.remoteDir, "-c", "user.name=T", "-c", "user.email=t@example.com", "merge", "-q", "--no-edit", "main");
    const merged = gitSync(stack.remoteDir, "rev-parse", "HEAD").trim();
    gitSync(stack.remoteDir, "update-ref", "refs/pull/1/head", merged);
    gitSync(stack.remoteDir, "checkout", "-q", "main");
    checks.length = 0;
    new GitHubGraphql().intercept(1);
    // Read twice: by the trigger (review.auto: whether a job is queued), then by the job.
    mockRepoConfig({ repo: "review:\n  debounceSeconds: 0\n" });
    mockRepoConfig({ repo: "review:\n  debounceSeconds: 0\n" });
    nock(API)
      .post(`${REPO_PATH}/check-runs`, (b) => (checks.push(b), true))
      .reply(201, { id: 812 })
      .get(`${REPO_PATH}/issues/1/comments`)
      .query(true)
      .reply(200, [])
      .patch(`${REPO_PATH}/check-runs/812`, (b) => (checks.push(b), true))
      .reply(200, {});
    mockPullConversation();

    const job = await stack.runToEnd("pull_request", pullRequestEvent("synchronize", { headSha: merged, cloneUrl: stack.cloneUrl }), "ub2-sync");

    const nothing = `the commits since the last review (${first.slice(0, 7)}..${merged.slice(0, 7)}) only bring in changes of the base branch`;
    expect(job.outcome).toBe(`✅ Done · nothing to review: ${nothing}`);
    expect(stack.fake.requests).toHaveLength(1);
    expect(reviews).toEqual([]);
    expect(checks.at(-1)).toMatchObject({ status: "completed", conclusion: "skipped" });
    expect(checks.at(-1).output.summary).toContain(nothing);
  });
});
