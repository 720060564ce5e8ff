/**
 * `/review` end to end: the whole PR the first time, then only what changed since crewbot's last
 * reviewed head; `/review full` the whole PR again. A finding posted before is never posted again.
 */
import { describe, expect, it } from "vitest";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { GitHubGraphql } from "../helpers/github-graphql.js";
import { useNock } from "../helpers/github.js";
import { githubReviewProblems } from "../helpers/github-review-check.js";
import { API, mockInstallationToken, mockJobComments, mockPermission, REPO_PATH, startStack, type Stack } from "./harness.js";
import { GREET, push } from "./review-harness.js";

useNock();

const UTIL = "export const a = 1;\nexport const b = 2;\n";

/** One `/review …` comment on PR #1 and GitHub's side of its job; returns what the job posted. */
async function reviewCommand(stack: Stack, body: string, n: number, o: { head: string; expectReview: boolean; first?: boolean; gh: GitHubGraphql; graphql?: number }) {
  const payload = issueCommentCreated(body, { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
  payload.issue.pull_request = { url: `${API}${REPO_PATH}/pulls/1` };
  payload.comment.id = 9000 + n;
  if (o.first) {
    mockInstallationToken();
    mockPermission("Codertocat", "write");
  }
  const edits: string[] = [];
  const reviews: any[] = [];
  const diff = gitSync(stack.remoteDir, "diff", "-M", "main...feature");
  const scope = mockJobComments({ progressId: 95 + n, edits, trigger: { id: payload.comment.id }, config: { repo: "review:\n  auto: false\n" }, pull: {} })
    .get(`${REPO_PATH}/pulls/1`)
    .reply(200, { head: { sha: o.head, repo: { full_name: "Codertocat/Hello-World" } }, base: { ref: "main" } });
  // After the first review, crewbot's threads are read (GraphQL) before the checkout.
  if (!o.first) o.gh.intercept(o.graphql ?? 1);
  if (o.expectReview) {
    scope
      .post(`${REPO_PATH}/pulls/1/reviews`, (b) => (reviews.push(b), o.gh.addReview(b), githubReviewProblems(diff, b).length === 0))
      .reply(200, { id: 800 + n, html_url: `https://github.com/Codertocat/Hello-World/pull/1#pullrequestreview-${800 + n}` });
  }
  const job = await stack.runToEnd("issue_comment", payload, `review-command-${n}`);
  expect(job.state).toBe("succeeded");
  return { reviews, final: edits.at(-1)!, context: JSON.stringify(stack.fake.requests.at(-1)!.body.messages) };
}

describe("/review, then /review again, then /review full", () => {
  it("reviews the whole PR, then only the new commits, then the whole PR again — never posting a finding twice", async () => {
    const stack = await startStack(
      [
        { text: "## Warnings\n- greet.js:10 - `line10` became a string.\n## Summary\nOne." },
        { text: "## Warnings\n- greet.js:10 - `line10` became a string.\n- util.js:2 - `b` is unused.\n## Summary\nTwo." },
        { text: "## Warnings\n- greet.js:10 - `line10` became a string.\n- util.js:2 - `b` is unused.\n- greet.js:12 - `line12` is never read.\n## Summary\nThree." },
      ],
      { files: { "greet.js": GREET } },
    );
    const gh = new GitHubGraphql();
    gitSync(stack.remoteDir, "branch", "feature");
    const first = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";') }, "first");

    const one = await reviewCommand(stack, "/review", 1, { head: first, expectReview: true, first: true, gh });
    expect(one.reviews[0].comments.map((c: any) => [c.path, c.line])).toEqual([["greet.js", 10]]);
    expect(one.context).toContain('+const line10 = \\"10\\";');

    const second = await push(stack, { "util.js": UTIL }, "second");
    const two = await reviewCommand(stack, "/review", 2, { head: second, expectReview: true, gh });
    // Only the new commit: util.js, not greet.js's change.
    expect(two.context).toContain("since the last review");
    expect(two.context).toContain("+export const b = 2;");
    expect(two.context).not.toContain('+const line10 = \\"10\\";');
    expect(two.reviews[0].comments.map((c: any) => [c.path, c.line])).toEqual([["util.js", 2]]);
    expect(two.reviews[0].body).toMatch(/1 finding already posted on an earlier review is not repeated/);
    expect(two.final).toContain(`- Incremental review: the commits ${first.slice(0, 7)}..${second.slice(0, 7)} since the last review.`);

    const three = await reviewCommand(stack, "/review full mind the strings", 3, { head: second, expectReview: true, gh });
    expect(three.context).toContain('+const line10 = \\"10\\";');
    expect(three.context).toContain("+export const b = 2;");
    expect(three.context).not.toContain("since the last review");
    expect(three.reviews[0].comments.map((c: any) => [c.path, c.line])).toEqual([["greet.js", 12]]);
    expect(three.reviews[0].body).toMatch(/2 findings already posted on an earlier review are not repeated/);
    expect(three.final).toContain("- Full review: `/review full` asked for the whole pull request.");
    // "full" chose the scope; only the rest is the reviewer's instruction.
    expect(three.context).toContain("mind the strings\\n\\n(Review pull request #1");
    expect(three.context).not.toContain("full mind the strings");
  });

  it("/review with nothing new since the last review says so and how to review it all again", async () => {
    const stack = await startStack([{ text: "## Summary\nFine." }], { files: { "greet.js": GREET } });
    const gh = new GitHubGraphql();
    gitSync(stack.remoteDir, "branch", "feature");
    const head = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", "const line10 = 11;") }, "first");
    await reviewCommand(stack, "/review", 1, { head, expectReview: false, first: true, gh });

    const again = await reviewCommand(stack, "/review", 2, { head, expectReview: false, gh });
    expect(stack.fake.requests).toHaveLength(1);
    expect(again.final).toContain(`- Nothing to review: commit ${head.slice(0, 7)} was reviewed already.`);
    expect(again.final).toContain("- Write `/review full` to review the whole pull request again.");
  });
  it("/review after a fixing push resolves the thread of the fixed line and says so", async () => {
    const stack = await startStack(
      [
        { text: "## Warnings\n- greet.js:10 - `line10` became a string.\n## Summary\nOne." },
        { text: "## Summary\nFixed." },
      ],
      { files: { "greet.js": GREET, "util.js": UTIL } },
    );
    const gh = new GitHubGraphql();
    gitSync(stack.remoteDir, "branch", "feature");
    const first = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";'), "util.js": UTIL.replace("2;", "3;") }, "first");
    await reviewCommand(stack, "/review", 1, { head: first, expectReview: true, first: true, gh });
    const [thread] = gh.threads;

    const fixed = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", "const line10 = Number(\"10\");") }, "fix");
    const two = await reviewCommand(stack, "/review", 2, { head: fixed, expectReview: false, gh, graphql: 2 });
    expect(gh.resolvedByMutation).toEqual([thread!.id]);
    expect(two.final).toContain("- Resolved 1 review thread whose lines the new commits changed.");
  });
});
