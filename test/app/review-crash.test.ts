/**
 * Crash windows that would leave a state behind on GitHub. An automatic review whose process died
 * before its reviewer started is run again by the queue: it goes on with the check run it had
 * started (found by head, check name, app and job id), so the head never gets a second
 * `crewbot/review` run nor keeps one `in_progress`. A thread answer that fails — or dies with its
 * process — says so in the thread in one short reply: never silence.
 */
import { hostname } from "node:os";
import nock from "nock";
import { describe, expect, it } from "vitest";
import { SqliteQueue } from "../../src/store/sqlite/job-queue.js";
import { pullRequestEvent, reviewCommentCreated } from "../fixtures/payloads.js";
import { checkRun } from "../helpers/check-runs.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { githubReviewProblems } from "../helpers/github-review-check.js";
import { API, mockInstallationToken, mockPermission, mockPullConversation, mockRepoConfig, REPO_PATH, startStack, TOKEN, type Stack } from "./harness.js";
import { GREET, push } from "./review-harness.js";

useNock();

const LIMITS = { perInstallation: 2, global: 4, leaseMs: 60_000 };

/** A stack whose runner never runs: the webhook only queues; its git server stays up for the restart. */
const queueOnly = () => startStack([], { runner: false, files: { "greet.js": GREET } });

/** The worker claims the job (as the embedded runner of this host), then dies: no finish, lease still valid. */
async function dieWhileRunning(dataDir: string, agentsStarted: boolean) {
  const queue = new SqliteQueue({ dataDir });
  const job = (await queue.claim(`embedded:${hostname()}`, LIMITS))!;
  if (agentsStarted) await queue.update(job.id, { agentsStarted: true });
  await queue.close();
  return job;
}

describe("an automatic review run again after its process died", () => {
  it("goes on with its own check run: no second run for the head, and it ends completed", async () => {
    const first = await queueOnly();
    gitSync(first.remoteDir, "branch", "feature");
    const head = await push(first, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";') }, "feature");
    // The trigger reads the config (review.auto: whether a job is queued); the job, run again below, reads it again.
    mockInstallationToken();
    mockRepoConfig({ repo: "review:\n  failOn: critical\n" });
    await first.probot.receive({ id: "crash-opened", name: "pull_request", payload: pullRequestEvent("opened", { headSha: head, cloneUrl: first.cloneUrl }) } as never);
    await first.crewbot.close();
    const died = await dieWhileRunning(first.dataDir, false);

    // GitHub as the first attempt left it: its check run on the head, in progress.
    const listed: unknown[] = [];
    const running = { ...checkRun({ id: 4711, name: "crewbot/review", headSha: head, app: { id: 1, slug: "crewbot" } }), status: "in_progress", conclusion: null, external_id: died.id };
    const other = { ...checkRun({ id: 4700, name: "crewbot/review", headSha: head, conclusion: "success", app: { id: 1, slug: "crewbot" } }), external_id: "an-older-job" };
    const checks: any[] = [];
    const reviews: any[] = [];
    const diff = gitSync(first.remoteDir, "diff", "-M", "main...feature");
    mockInstallationToken();
    mockRepoConfig({ repo: "review:\n  failOn: critical\n" });
    mockPermission("Codertocat", "write");
    mockPullConversation();
    nock(API)
      .get(`${REPO_PATH}/commits/${head}/check-runs`)
      .query((q) => (listed.push(q), true))
      .reply(200, { total_count: 2, check_runs: [other, running] })
      .patch(`${REPO_PATH}/check-runs/4711`, (b) => (checks.push(b), true))
      .times(2)
      .reply(200, {})
      .get(`${REPO_PATH}/issues/1/comments`)
      .query(true)
      .reply(200, [])
      .post(`${REPO_PATH}/pulls/1/reviews`, (b) => (reviews.push(b), true))
      .reply(() => {
        const problems = githubReviewProblems(diff, reviews.at(-1));
        return problems.length > 0 ? [422, { message: "Unprocessable Entity", errors: problems }] : [200, { id: 801, html_url: "https://github.com/Codertocat/Hello-World/pull/1#pullrequestreview-801" }];
      });

    const again = await startStack([{ text: "## Critical\n- greet.js:10 - `line10` is a string now.\n## Summary\nBroken." }], { dataDir: first.dataDir });
    const ended = await again.waitFor(died.id);
    await again.crewbot.background.idle();

    expect(ended).toMatchObject({ state: "succeeded", attempts: 2, outcome: "✅ Done · 1 critical · 0 warnings · 0 suggestions" });
    expect(listed).toEqual([{ check_name: "crewbot/review", filter: "all", per_page: "100", app_id: "1" }]);
    // Only PATCHes of run 4711: back to in progress, then completed — nock refuses any POST of a new run.
    expect(checks.map((c) => [c.status, c.conclusion ?? null])).toEqual([
      ["in_progress", null],
      ["completed", "failure"],
    ]);
    expect(reviews).toHaveLength(1);
  });
});

const TOP = { id: 1001, body: "**Warning** — `line10` is a string now; callers add it to numbers.", path: "greet.js", line: 10 };

function replyPayload(stack: Stack, head: string, body: string) {
  const payload = reviewCommentCreated(body, { cloneUrl: stack.cloneUrl, defaultBranch: "main", id: 1002, path: "greet.js", line: 10, side: "RIGHT", inReplyTo: TOP.id });
  payload.comment.user = { ...payload.comment.user, login: "Codertocat", type: "User" };
  payload.sender = { ...payload.sender, login: "Codertocat", type: "User" };
  payload.pull_request.number = 1;
  payload.pull_request.head = { ...payload.pull_request.head, sha: head, ref: "feature", repo: { ...payload.pull_request.head.repo, full_name: "Codertocat/Hello-World" } };
  payload.pull_request.base = { ...payload.pull_request.base, ref: "main" };
  return payload;
}

const crewbotTop = { ...TOP, user: { login: "crewbot[bot]", type: "Bot" } };

describe("a thread answer that fails says so in the thread", () => {
  it("when its process dies mid-answer: one short reply when the app starts again", async () => {
    const first = await queueOnly();
    gitSync(first.remoteDir, "branch", "feature");
    const head = await push(first, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";') }, "feature");
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    nock(API).get(`${REPO_PATH}/pulls/comments/${TOP.id}`).reply(200, crewbotTop);
    await first.probot.receive({ id: "answer-died", name: "pull_request_review_comment", payload: replyPayload(first, head, "Is it, though?") } as never);
    await first.crewbot.background.idle();
    await first.crewbot.close();
    const died = await dieWhileRunning(first.dataDir, true);

    const replies: any[] = [];
    mockInstallationToken();
    nock(API)
      .post(`${REPO_PATH}/pulls/1/comments`, (b) => (replies.push(b), true))
      .reply(201, { id: 1003, html_url: "https://github.com/Codertocat/Hello-World/pull/1#discussion_r1003" });
    const again = await startStack([], { dataDir: first.dataDir });
    const ended = await again.waitFor(died.id);
    for (let i = 0; i < 100 && replies.length === 0; i++) await new Promise((r) => setTimeout(r, 50));

    expect(ended).toMatchObject({ state: "failed", outcome: "❌ Failed: interrupted" });
    expect(replies).toEqual([
      {
        body: `❌ Failed: interrupted — crewbot could not answer here. [Transcript](https://crewbot.example.com/jobs/${died.id})`,
        in_reply_to: TOP.id,
        commit_id: head,
        path: "greet.js",
      },
    ]);
  });

  it("when the thread cannot be read: one short reply in it all the same, the reason redacted", async () => {
    const stack = await startStack([], { files: { "greet.js": GREET } });
    gitSync(stack.remoteDir, "branch", "feature");
    const head = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";') }, "feature");
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const replies: any[] = [];
    nock(API)
      .get(`${REPO_PATH}/pulls/comments/${TOP.id}`)
      .reply(200, crewbotTop) // the trigger's look
      .get(`${REPO_PATH}/pulls/comments/${TOP.id}`)
      .reply(403, { message: `Resource not accessible with ${TOKEN}` }) // the job's, naming the token
      .post(`${REPO_PATH}/pulls/1/comments`, (b) => (replies.push(b), true))
      .reply(201, { id: 1003, html_url: "https://github.com/Codertocat/Hello-World/pull/1#discussion_r1003" });

    const job = await stack.runToEnd("pull_request_review_comment", replyPayload(stack, head, "Why?"), "answer-unreadable");

    expect(job.state).toBe("failed");
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ in_reply_to: TOP.id, commit_id: head, path: "greet.js" });
    expect(replies[0].body).toMatch(/^❌ Failed: .+ — crewbot could not answer here\. \[Transcript\]\(https:\/\/crewbot\.example\.com\/jobs\/.+\)$/);
    expect(replies[0].body.split("\n")).toHaveLength(1);
    expect(replies[0].body).not.toContain(TOKEN);
    expect(stack.fake.requests).toHaveLength(0);
  });
});
