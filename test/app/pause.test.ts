/**
 * `/crewbot pause` and `/crewbot resume` end to end, on SQLite and on Redis: a writer's pause is
 * answered once; a push while paused gets a `crewbot/review` check that says so, concluded by the
 * sticky gate (neutral, or failure while a critical finding is open), with no model call; resume
 * makes the next push reviewed as usual; a non-writer's pause is refused; on an issue the reply
 * says pause applies to pull requests; a failed suite on a paused pull request starts no ci-fix round.
 */
import nock from "nock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderNotAllowed } from "../../src/report/render.js";
import { checkSuiteCompleted } from "../fixtures/check-suite.js";
import { issueCommentCreated, pullRequestEvent } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { GitHubGraphql } from "../helpers/github-graphql.js";
import { useNock } from "../helpers/github.js";
import { startRedis, type RedisServer } from "../queue/redis-server.js";
import { API, mockInstallationToken, mockPermission, REPO_PATH, startStack, type Stack } from "./harness.js";
import { BRANCH, crewbotBranch, pull } from "./ci-fix-harness.js";
import { deliver, GREET, mockReviewJob, push, type Traffic } from "./review-harness.js";

useNock();

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis.stop());

const CRITICAL = "## Critical\n- greet.js:10 - `line10` is a string now.\n## Summary\nBroken.";
const CLEAN = "## Summary\nNothing wrong.";
const GATED = "review:\n  failOn: critical\n  debounceSeconds: 0\n";
const UNGATED = "review:\n  debounceSeconds: 0\n";
const THREAD_URL = "https://github.com/Codertocat/Hello-World/pull/1#discussion_r9000";

const PAUSED_REPLY =
  "⏸ Paused by @Codertocat: no automatic reviews, summaries or CI fixes on this pull request until a writer comments `/crewbot resume`. " +
  "Pushes get a `crewbot/review` check that says so; commands such as `/review` still work.";
const RESUMED_REPLY = "▶️ Resumed by @Codertocat: automatic reviews, summaries and CI fixes are back on; the pull request's head is being reviewed now.";
const PAUSED_SUMMARY = "Not reviewed automatically: the pull request is paused by @Codertocat; comment /crewbot resume to review its pushes again.";

type Backend = [string, () => NodeJS.ProcessEnv];
const backends: Backend[] = [
  ["SQLite", () => ({})],
  ["Redis", () => ({ REDIS_URL: redis.url, REDIS_PREFIX: `crewbot-pause-${Date.now()}-${Math.random().toString(36).slice(2)}` })],
];

/** A comment on PR #1 (or on issue #1), by `login`; its reply's body is recorded. */
async function comment(stack: Stack, body: string, o: { login?: string; onIssue?: boolean; n: number }): Promise<string[]> {
  const payload = issueCommentCreated(body, { cloneUrl: stack.cloneUrl, defaultBranch: "main", ...(o.login ? { login: o.login } : {}) });
  if (!o.onIssue) payload.issue.pull_request = { url: `${API}${REPO_PATH}/pulls/1` };
  payload.issue.number = 1;
  payload.comment.id = 8000 + o.n;
  const replies: string[] = [];
  nock(API)
    .post(`${REPO_PATH}/issues/1/comments`, (b) => (replies.push(b.body), true))
    .reply(201, { id: 8100 + o.n });
  await stack.probot.receive({ id: `pause-comment-${o.n}`, name: "issue_comment", payload } as never);
  await stack.crewbot.background.idle();
  return replies;
}

/** A stack with PR #1 (greet.js changed on `feature`), reviewed once on opening with `first`. */
async function reviewedOnce(env: NodeJS.ProcessEnv, config: string, first: string, later: string[] = []) {
  const stack = await startStack([{ text: first }, ...later.map((text) => ({ text }))], { files: { "greet.js": GREET }, env });
  gitSync(stack.remoteDir, "branch", "feature");
  const head = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";') }, "feature");
  const t: Traffic = { reviews: [], checks: [], rejected: [], graphql: new GitHubGraphql() };
  mockReviewJob(stack, t, { checkId: 500, review: first !== CLEAN, config });
  const job = await deliver(stack, "opened", head, "pause-opened");
  expect(job.state).toBe("succeeded");
  expect(stack.fake.requests).toHaveLength(1);
  t.checks.length = 0;
  return { stack, t, head };
}

const docsPush = (stack: Stack, n: number) => push(stack, { [`docs-${n}.md`]: `# Notes ${n}\n` }, `docs ${n}`);

describe.each(backends)("/crewbot pause on %s", (name, envOf) => {
  it("a writer pauses: a push gets a neutral check saying so and no model call; a resume reviews that head at once", async () => {
    const { stack, t } = await reviewedOnce(envOf(), UNGATED, CLEAN, [CLEAN]);
    // The commenter's permission is known from the first review's job (remembered briefly).
    expect(await comment(stack, "/crewbot pause", { n: 1 })).toEqual([PAUSED_REPLY]);
    expect(await stack.crewbot.services.records.pauses.get("codertocat/hello-world", 1)).toMatchObject({ by: "Codertocat" });

    const paused = await docsPush(stack, 1);
    mockReviewJob(stack, t, { checkId: 501, cached: true, config: UNGATED, context: false });
    const job = await deliver(stack, "synchronize", paused, "pause-push-1");
    expect(job.outcome).toBe("✅ Paused: the pull request is paused by @Codertocat; comment /crewbot resume to review its pushes again");
    expect(t.checks.map((c) => c.method)).toEqual(["POST"]);
    expect(t.checks[0]!.body).toMatchObject({ name: "crewbot/review", head_sha: paused, status: "completed", conclusion: "neutral" });
    expect(t.checks[0]!.body.output).toEqual({ title: "Paused", summary: PAUSED_SUMMARY });
    expect(stack.fake.requests).toHaveLength(1); // only the first review's

    // The resume reads the pull request as it is now and reviews its head, the one left "Paused".
    t.checks.length = 0;
    nock(API).get(`${REPO_PATH}/pulls/1`).reply(200, pullRequestEvent("synchronize", { headSha: paused, cloneUrl: stack.cloneUrl }).pull_request);
    mockReviewJob(stack, t, { checkId: 502, cached: true, config: UNGATED, graphql: 1, queuedWithoutConfig: true });
    expect(await comment(stack, "/crewbot resume", { n: 2 })).toEqual([RESUMED_REPLY]);
    expect(await stack.crewbot.services.records.pauses.get("codertocat/hello-world", 1)).toBeUndefined();
    const [queued] = await stack.crewbot.queue.listRecent({ limit: 1 });
    expect(queued!.review).toMatchObject({ automatic: true, event: "resumed", headSha: paused });
    const review = await stack.waitFor(queued!.id);
    await stack.crewbot.background.idle();
    expect(review.outcome).toBe("✅ Done · no findings");
    expect(t.checks[0]!.body).toMatchObject({ name: "crewbot/review", head_sha: paused });
    expect(t.checks.at(-1)!.body).toMatchObject({ status: "completed", conclusion: "success" });
    expect(stack.fake.requests).toHaveLength(2);
  }, 90_000);

  it("a push while paused, with a critical finding open and failOn: critical, fails listing it, with no model call", async () => {
    const { stack, t } = await reviewedOnce(envOf(), GATED, CRITICAL);
    expect(await comment(stack, "/crewbot pause", { n: 3 })).toEqual([PAUSED_REPLY]);

    const paused = await docsPush(stack, 3);
    mockReviewJob(stack, t, { checkId: 503, cached: true, config: GATED, graphql: 1, context: false });
    await deliver(stack, "synchronize", paused, "pause-push-3");
    expect(t.checks.map((c) => c.method)).toEqual(["POST"]);
    expect(t.checks[0]!.body).toMatchObject({ head_sha: paused, status: "completed", conclusion: "failure" });
    expect(t.checks[0]!.body.output).toEqual({
      title: "Not reviewed · 1 open critical finding",
      summary: `${PAUSED_SUMMARY}\n\n- Failing: 1 open critical finding (review.failOn: critical):\n  - **Critical** \`greet.js:10\` — \`line10\` is a string now. ([thread](${THREAD_URL}))`,
    });
    expect(stack.fake.requests).toHaveLength(1);
  }, 90_000);

  it("answers a second pause and a resume of an unpaused pull request plainly, and pause on an issue says it is for pull requests", async () => {
    const stack = await startStack([], { runner: false, env: envOf() });
    expect(stack.crewbot.queueKind).toBe(name === "Redis" ? "redis" : "sqlite");
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    expect(await comment(stack, "/crewbot resume", { n: 4 })).toEqual(["This pull request is not paused; there is nothing to resume."]);
    expect(await comment(stack, "/crewbot pause", { n: 5 })).toEqual([PAUSED_REPLY]);
    expect(await comment(stack, "/crewbot pause", { n: 6 })).toEqual(["This pull request is already paused (by @Codertocat). Comment `/crewbot resume` to end the pause."]);
    expect(await comment(stack, "/crewbot pause", { n: 7, onIssue: true })).toEqual([
      "`/crewbot pause` applies to pull requests: it pauses or resumes their automatic reviews, summaries and CI fixes.",
    ]);
    expect(await stack.crewbot.queue.listRecent()).toEqual([]);
  });

  it("refuses a pause by someone without write permission, and nothing is paused", async () => {
    const stack = await startStack([], { runner: false, env: envOf() });
    mockInstallationToken();
    mockPermission("mallory", "read");
    expect(await comment(stack, "/crewbot pause", { n: 8, login: "mallory" })).toEqual([renderNotAllowed("mallory")]);
    expect(await stack.crewbot.services.records.pauses.get("codertocat/hello-world", 1)).toBeUndefined();
  });

  it("a failed suite on crewbot's own paused pull request starts no ci-fix round and writes nothing", async () => {
    const stack = await startStack([], { env: envOf() });
    const sha = await crewbotBranch(stack);
    await stack.crewbot.services.records.pauses.pause("codertocat/hello-world", 2, "Codertocat");
    mockInstallationToken();
    nock(API).get(`${REPO_PATH}/pulls/2`).reply(200, pull(sha)); // the trigger's look at the pull request; the job reads nothing
    const job = await stack.runToEnd("check_suite", checkSuiteCompleted({ suiteId: 9100, headSha: sha, headBranch: BRANCH, cloneUrl: stack.cloneUrl }), "pause-suite");
    expect(job.outcome).toBe("⏹ Cancelled: the pull request is paused by @Codertocat (/crewbot pause)");
    expect(stack.fake.requests).toEqual([]);
    expect(stack.git.requests).toEqual([]);
    expect(await stack.crewbot.services.records.ciFixRounds.get("codertocat/hello-world", 2)).toBeUndefined();
  });
});
