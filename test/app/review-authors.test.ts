/**
 * Whose pull requests are reviewed automatically (`review.authors`, from the payload's
 * `author_association`), and `review.auto: false` making no check run at all. Every GitHub
 * request is mocked exactly: nock fails the test on any other request (a check run included).
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import nock from "nock";
import { describe, expect, it } from "vitest";
import { issueCommentCreated, pullRequestEvent } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { API, mockInstallationToken, mockJobComments, mockPermission, mockPullConversation, mockRepoConfig, REPO_PATH, startStack, type Stack } from "./harness.js";

useNock();

/** One commit on the remote's `feature` branch, which PR #1's head points at. */
async function pushFeature(stack: Stack): Promise<string> {
  const dir = stack.remoteDir;
  gitSync(dir, "checkout", "-q", "-b", "feature");
  await writeFile(path.join(dir, "README.md"), "# changed\n");
  gitSync(dir, "commit", "-q", "-am", "change");
  const sha = gitSync(dir, "rev-parse", "HEAD").trim();
  gitSync(dir, "update-ref", "refs/pull/1/head", sha);
  gitSync(dir, "checkout", "-q", "main");
  return sha;
}

const opened = (stack: Stack, sha: string, association: string, login = "stranger") =>
  stack.runToEnd("pull_request", pullRequestEvent("opened", { headSha: sha, cloneUrl: stack.cloneUrl, association, author: { login, type: "User" } }), `pr-${association}`);

const untrustedSummary = (association: string) =>
  `Not reviewed automatically: @stranger is not a trusted author (author_association ${association}; ` +
  "review.authors: trusted reviews pull requests by owners, members and collaborators); a maintainer can comment /review, or set review.authors: everyone.";

describe("automatic reviews and the author's association", () => {
  it.each(["CONTRIBUTOR", "FIRST_TIME_CONTRIBUTOR", "NONE"])("an author who is %s: no model call, no clone, a skipped check run that says why", async (association) => {
    const stack = await startStack([{ text: "never asked" }]);
    const sha = await pushFeature(stack);
    mockInstallationToken();
    // Read twice: by the trigger (review.auto: whether a job is queued), then by the job.
    mockRepoConfig();
    mockRepoConfig();
    const checks: unknown[] = [];
    nock(API).post(`${REPO_PATH}/check-runs`, (b) => (checks.push(b), true)).reply(201, { id: 901 });

    const job = await opened(stack, sha, association);

    expect(job.state).toBe("succeeded");
    expect(job.outcome).toBe(`✅ Skipped: ${untrustedSummary(association).replace("Not reviewed automatically: ", "").replace(/\.$/, "")}`);
    expect(checks).toEqual([
      {
        name: "crewbot/review",
        head_sha: sha,
        external_id: job.id,
        details_url: `https://crewbot.example.com/jobs/${job.id}`,
        status: "completed",
        conclusion: "skipped",
        completed_at: expect.any(String),
        output: { title: "Skipped", summary: untrustedSummary(association) },
      },
    ]);
    expect(stack.fake.requests).toEqual([]);
    expect(stack.git.fetches()).toEqual([]);
  });

  it.each(["OWNER", "MEMBER", "COLLABORATOR"])("an author who is %s is reviewed", async (association) => {
    const stack = await startStack([{ text: "## Summary\nLooks right." }]);
    const sha = await pushFeature(stack);
    mockInstallationToken();
    // Read twice: by the trigger (review.auto: whether a job is queued), then by the job.
    mockRepoConfig();
    mockRepoConfig();
    mockPermission("stranger", "write");
    const checks: any[] = [];
    nock(API)
      .post(`${REPO_PATH}/check-runs`, (b) => (checks.push(b), true))
      .reply(201, { id: 902 })
      .patch(`${REPO_PATH}/check-runs/902`, (b) => (checks.push(b), true))
      .reply(200, {});
    nock(API).get(`${REPO_PATH}/issues/1/comments`).query(true).reply(200, []);
    mockPullConversation({ number: 1 });

    const job = await opened(stack, sha, association);

    expect(job.outcome).toBe("✅ Done · no findings");
    expect(stack.fake.requests).toHaveLength(1);
    expect(checks.map((c) => [c.status, c.conclusion ?? null])).toEqual([["in_progress", null], ["completed", "success"]]);
  });

  it("review.authors: everyone reviews a first-time contributor's pull request", async () => {
    const stack = await startStack([{ text: "## Summary\nLooks right." }]);
    const sha = await pushFeature(stack);
    mockInstallationToken();
    // Read twice: by the trigger (review.auto: whether a job is queued), then by the job.
    mockRepoConfig({ repo: "review:\n  authors: everyone\n" });
    mockRepoConfig({ repo: "review:\n  authors: everyone\n" });
    mockPermission("stranger", "none");
    const checks: any[] = [];
    nock(API)
      .post(`${REPO_PATH}/check-runs`, (b) => (checks.push(b), true))
      .reply(201, { id: 903 })
      .patch(`${REPO_PATH}/check-runs/903`, (b) => (checks.push(b), true))
      .reply(200, {});
    nock(API).get(`${REPO_PATH}/issues/1/comments`).query(true).reply(200, []);
    mockPullConversation({ number: 1 });

    const job = await opened(stack, sha, "FIRST_TIME_CONTRIBUTOR");

    expect(job.outcome).toBe("✅ Done · no findings");
    expect(stack.fake.requests).toHaveLength(1);
    // The description is a stranger's text: marked third-party for the reviewer.
    expect(JSON.stringify(stack.fake.requests[0]!.body.messages)).toMatch(/pull request #1 by @stranger\\" trust=\\"third-party\\"/);
    expect(checks.at(-1)).toMatchObject({ status: "completed", conclusion: "success" });
  });

  it("review.auto: false by the time the job runs makes no check run at all — nothing but the token and the config", async () => {
    const stack = await startStack([{ text: "never asked" }]);
    const sha = await pushFeature(stack);
    mockInstallationToken();
    mockRepoConfig(); // what the trigger read: on (when it is off then, nothing is queued: review-auto-off.test.ts)
    mockRepoConfig({ repo: "review:\n  auto: false\n" }); // turned off before the job ran

    const job = await opened(stack, sha, "OWNER", "Codertocat");

    expect(job.state).toBe("succeeded");
    expect(job.outcome).toBe("✅ Skipped: automatic reviews are off (review.auto: false); no check run");
    expect(stack.fake.requests).toEqual([]);
    expect(stack.git.fetches()).toEqual([]);
  });

  it("an invalid review.authors is a failed check run naming the key", async () => {
    const stack = await startStack([{ text: "never asked" }]);
    const sha = await pushFeature(stack);
    mockInstallationToken();
    // Read twice: by the trigger (review.auto: whether a job is queued), then by the job.
    mockRepoConfig({ repo: "review:\n  authors: friends\n" });
    mockRepoConfig({ repo: "review:\n  authors: friends\n" });
    const checks: any[] = [];
    nock(API).post(`${REPO_PATH}/check-runs`, (b) => (checks.push(b), true)).reply(201, { id: 904 });

    const job = await opened(stack, sha, "OWNER", "Codertocat");

    expect(job.state).toBe("failed");
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(checks[0].output.summary).toContain('- `review.authors`: expected trusted or everyone, got "friends"');
    expect(stack.fake.requests).toEqual([]);
  });

  it("/review by a writer reviews a stranger's pull request: the trust rule is for automatic reviews only", async () => {
    const stack = await startStack([{ text: "## Summary\nLooks right." }]);
    const sha = await pushFeature(stack);
    const payload = issueCommentCreated("/review", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    payload.issue.pull_request = { url: `${API}${REPO_PATH}/pulls/1` };
    payload.issue.user = { ...payload.issue.user, login: "stranger" };
    payload.issue.author_association = "FIRST_TIME_CONTRIBUTOR";
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    mockPermission("stranger", "none");
    const edits: string[] = [];
    mockJobComments({ progressId: 97, edits, trigger: { id: payload.comment.id }, pull: {} })
      .get(`${REPO_PATH}/pulls/1`)
      .reply(200, { head: { sha, repo: { full_name: "Codertocat/Hello-World" } }, base: { ref: "main" } });

    const job = await stack.runToEnd("issue_comment", payload, "review-stranger");

    expect(job.outcome).toMatch(/^✅ Done · /);
    expect(stack.fake.requests).toHaveLength(1);
    expect(edits.at(-1)).toMatch(/^✅ Done/);
  });
});
