/**
 * Monthly spend caps end to end, on SQLite and on Redis: a repository whose spend this month is
 * over its `budgets.monthlyUsd` gets one `⏸ Stopped` reply naming the cap and its reset day for a
 * `/plan`, with no model call and nothing cloned; an automatic review on a push gets a `neutral`
 * check saying why (a `failure` while the sticky gate holds); at 80 % a job's comment says so;
 * the installation's cap (`CREWBOT_MONTHLY_BUDGET_USD`) answers the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nextMonthStart, utcDay } from "../../src/installations/spend-caps.js";
import { checkRunRequestedAction } from "../fixtures/check-run.js";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { GitHubGraphql } from "../helpers/github-graphql.js";
import { useNock } from "../helpers/github.js";
import { startRedis, type RedisServer } from "../queue/redis-server.js";
import { INSTALLATION_ID, mockInstallationToken, mockJobComments, mockPermission, normalise, REPO_PATH, startStack, type Stack } from "./harness.js";
import { deliver, GREET, mockReviewJob, push, type Traffic } from "./review-harness.js";

useNock();

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis.stop());

type Backend = [string, () => NodeJS.ProcessEnv];
const backends: Backend[] = [
  ["SQLite", () => ({})],
  ["Redis", () => ({ REDIS_URL: redis.url, REDIS_PREFIX: `crewbot-caps-${Date.now()}-${Math.random().toString(36).slice(2)}` })],
];

const REPO = "codertocat/hello-world";
const CAPPED = "budgets:\n  monthlyUsd: 5\nreview:\n  debounceSeconds: 0\n";
const GATED = "budgets:\n  monthlyUsd: 5\nreview:\n  failOn: critical\n  debounceSeconds: 0\n";
const CRITICAL = "## Critical\n- greet.js:10 - `line10` is a string now.\n## Summary\nBroken.";
const THREAD_URL = "https://github.com/Codertocat/Hello-World/pull/1#discussion_r9000";
const PLAN = [{ text: "Scout report: README.md says hello." }, { text: "## Goal\nSay hello.\n\n## Plan\n1. Nothing\n\n## Risks\nNone." }];

/** The day the caps count from zero again, as the texts say it. */
const resets = () => `${utcDay(nextMonthStart(Date.now()))} (UTC)`;
const REPO_REFUSAL = (spent: string) => `this repository has used its monthly budget ($${spent} of $5.00, \`budgets.monthlyUsd\`); new jobs start again on ${resets()}`;

/** Spend of this month on the repository, as finished jobs leave it in the ledger. */
async function spent(stack: Stack, usd: number, id = "earlier-job"): Promise<void> {
  const ledger = stack.crewbot.services.operator.usage;
  await ledger.recordStart(INSTALLATION_ID, id, Date.now(), REPO);
  await ledger.recordCost(INSTALLATION_ID, id, usd, REPO);
}

/** A `/plan` on issue #1 run to its end, with the repository's config; its progress comment's edits recorded. */
async function plan(stack: Stack, config: string, o: { reads: boolean; n: number }) {
  const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
  payload.comment.id += o.n;
  const edits: string[] = [];
  // Refused, the job reads the config and nothing more: not the conversation.
  mockJobComments({ progressId: 700 + o.n, edits, trigger: { id: payload.comment.id }, config: { repo: config }, ...(o.reads ? {} : { conversation: false }) });
  const job = await stack.runToEnd("issue_comment", payload, `caps-plan-${o.n}`);
  return { job, edits };
}

describe.each(backends)("monthly caps on %s", (_name, envOf) => {
  it("a repository over its cap: /plan ends in one reply naming the cap and its reset, with no model call and nothing cloned", async () => {
    const stack = await startStack(PLAN, { env: envOf() });
    await spent(stack, 5.5);
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const { job, edits } = await plan(stack, CAPPED, { reads: false, n: 1 });
    expect(job.state).toBe("failed");
    expect(normalise(job.outcome!, job.id)).toBe(`⏸ Stopped: ${REPO_REFUSAL("5.50")} · Ns · 0 tokens · $0.0000`);
    expect(normalise(edits.at(-1)!, job.id)).toBe(
      `⏸ Stopped: ${REPO_REFUSAL("5.50")} · Ns · 0 tokens · $0.0000\n<!-- crewbot:job:JOB -->\n\n[Transcript](https://crewbot.example.com/jobs/JOB)`,
    );
    expect(stack.fake.requests).toEqual([]);
    expect(stack.git.requests).toEqual([]);
  });

  it("a repository over its cap: a writer's Fix these findings click ends in the same reply, with no model call and nothing cloned", async () => {
    const stack = await startStack([], { env: envOf() });
    await spent(stack, 5.5);
    mockInstallationToken();
    mockPermission("maintainer", "write");
    const head = "a".repeat(40);
    const edits: string[] = [];
    mockJobComments({ progressId: 790, edits, config: { repo: CAPPED }, conversation: false })
      .get(`${REPO_PATH}/pulls/1`)
      .reply(200, { number: 1, state: "open", title: "T", body: "B", user: { login: "Codertocat" }, head: { ref: "feature", sha: head, repo: { full_name: "Codertocat/Hello-World" } }, base: { repo: { full_name: "Codertocat/Hello-World" } } });
    const job = await stack.runToEnd("check_run", checkRunRequestedAction({ login: "maintainer", headSha: head, cloneUrl: stack.cloneUrl }), "caps-fix-click");
    expect(normalise(job.outcome!, job.id)).toBe(`⏸ Stopped: ${REPO_REFUSAL("5.50")} · Ns · 0 tokens · $0.0000`);
    expect(stack.fake.requests).toEqual([]);
    expect(stack.git.requests).toEqual([]);
  });

  it("at 80 % of the cap, the job runs and its comment says how near the cap is", async () => {
    const stack = await startStack(PLAN, { env: envOf() });
    await spent(stack, 4.2);
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const { job, edits } = await plan(stack, CAPPED, { reads: true, n: 2 });
    expect(job.outcome).toMatch(/^✅ Done · /);
    const notice = `⚠️ This repository has used 84 % of its monthly budget ($4.20 of $5.00, \`budgets.monthlyUsd\`); it resets on ${resets()}.`;
    const [status, marker, ...rest] = normalise(edits.at(-1)!, job.id).split("\n");
    expect([status!.replace(/ · .*/, ""), marker, rest[0], rest[1]]).toEqual(["✅ Done", "<!-- crewbot:job:JOB -->", "", notice]);
    expect(edits.at(-1)!.split(notice)).toHaveLength(2); // said once
    expect(stack.fake.requests).toHaveLength(2);
  });

  it("the installation's cap answers the same way, naming CREWBOT_MONTHLY_BUDGET_USD, before the config is read", async () => {
    const stack = await startStack(PLAN, { env: { ...envOf(), CREWBOT_MONTHLY_BUDGET_USD: "10" } });
    await spent(stack, 12);
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    const edits: string[] = [];
    mockJobComments({ progressId: 703, edits, trigger: { id: payload.comment.id }, conversation: false });
    const job = await stack.runToEnd("issue_comment", payload, "caps-installation");
    const reason = `this installation has used its monthly budget ($12.00 of $10.00, \`CREWBOT_MONTHLY_BUDGET_USD\`); new jobs start again on ${resets()}`;
    expect(normalise(edits.at(-1)!, job.id)).toBe(`⏸ Stopped: ${reason} · Ns · 0 tokens · $0.0000\n<!-- crewbot:job:JOB -->\n\n[Transcript](https://crewbot.example.com/jobs/JOB)`);
    expect(stack.fake.requests).toEqual([]);
  });

  it("an automatic review of a push over the cap: a neutral check saying why, no model call", async () => {
    const stack = await startStack([], { files: { "greet.js": GREET }, env: envOf() });
    gitSync(stack.remoteDir, "branch", "feature");
    await spent(stack, 6);
    const head = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";') }, "feature");
    const t: Traffic = { reviews: [], checks: [], rejected: [] };
    mockReviewJob(stack, t, { checkId: 510, config: CAPPED, context: false });
    const job = await deliver(stack, "opened", head, "caps-review-1");
    expect(job.outcome).toBe(`⏸ Stopped: ${REPO_REFUSAL("6.00")}`);
    expect(t.checks.map((c) => c.method)).toEqual(["POST"]);
    expect(t.checks[0]!.body).toMatchObject({ name: "crewbot/review", head_sha: head, status: "completed", conclusion: "neutral" });
    expect(t.checks[0]!.body.output).toEqual({ title: "Monthly budget used", summary: `Not reviewed automatically: ${REPO_REFUSAL("6.00")}.` });
    expect(stack.fake.requests).toEqual([]);
  }, 90_000);

  it("an automatic review at 80 % runs, and its check says how near the cap is before the review's own summary", async () => {
    const stack = await startStack([{ text: "## Summary\nNothing wrong." }], { files: { "greet.js": GREET }, env: envOf() });
    gitSync(stack.remoteDir, "branch", "feature");
    await spent(stack, 4.5);
    const head = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", "const line10 = 11;") }, "feature");
    const t: Traffic = { reviews: [], checks: [], rejected: [] };
    mockReviewJob(stack, t, { checkId: 513, config: CAPPED });
    const job = await deliver(stack, "opened", head, "caps-review-near");
    expect(job.outcome).toBe("✅ Done · no findings");
    const done = t.checks.at(-1)!.body;
    expect(done).toMatchObject({ status: "completed", conclusion: "success" });
    const notice = `⚠️ This repository has used 90 % of its monthly budget ($4.50 of $5.00, \`budgets.monthlyUsd\`); it resets on ${resets()}.`;
    expect(done.output.summary.startsWith(`${notice}\n\n`)).toBe(true);
    expect(stack.fake.requests).toHaveLength(1);
  }, 90_000);

  it("over the cap with a critical finding open and failOn: critical, the sticky gate still fails, listing it", async () => {
    const stack = await startStack([{ text: CRITICAL }], { files: { "greet.js": GREET }, env: envOf() });
    gitSync(stack.remoteDir, "branch", "feature");
    const first = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";') }, "feature");
    const t: Traffic = { reviews: [], checks: [], rejected: [], graphql: new GitHubGraphql() };
    mockReviewJob(stack, t, { checkId: 511, review: true, config: GATED });
    expect((await deliver(stack, "opened", first, "caps-gate-1")).state).toBe("succeeded");
    t.checks.length = 0;

    await spent(stack, 7);
    const later = await push(stack, { "docs.md": "# Notes\n" }, "docs");
    mockReviewJob(stack, t, { checkId: 512, cached: true, config: GATED, graphql: 1, context: false });
    await deliver(stack, "synchronize", later, "caps-gate-2");
    expect(t.checks.map((c) => c.method)).toEqual(["POST"]);
    expect(t.checks[0]!.body).toMatchObject({ head_sha: later, status: "completed", conclusion: "failure" });
    const cost = (await stack.crewbot.services.operator.usage.costSince(INSTALLATION_ID, 0, REPO)).toFixed(2);
    expect(t.checks[0]!.body.output).toEqual({
      title: "Not reviewed · 1 open critical finding",
      summary: `Not reviewed automatically: ${REPO_REFUSAL(cost)}.\n\n- Failing: 1 open critical finding (review.failOn: critical):\n  - **Critical** \`greet.js:10\` — \`line10\` is a string now. ([thread](${THREAD_URL}))`,
    });
    expect(stack.fake.requests).toHaveLength(1); // the first review's only
  }, 90_000);
});
