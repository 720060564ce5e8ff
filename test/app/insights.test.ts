/**
 * Quality measured in production, end to end: a pull request reviewed twice (one finding fixed by a
 * push, whose thread crewbot resolves; one left open; one more found after the push) merges; the
 * `pull_request.closed` webhook reads crewbot's threads once (GraphQL) and keeps each finding's
 * end; `/crewbot insights` then answers with the repository's last 30 days in one table, and the
 * metrics count the ends without any repository or person in their labels.
 */
import nock from "nock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueCommentCreated, pullRequestEvent } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { GitHubGraphql } from "../helpers/github-graphql.js";
import { useNock } from "../helpers/github.js";
import { startRedis, type RedisServer } from "../queue/redis-server.js";
import { API, REPO_PATH, startStack, type Stack } from "./harness.js";
import { GREET, mockReviewJob, push, type Traffic } from "./review-harness.js";

useNock();

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis.stop());

const backends: Array<[string, () => NodeJS.ProcessEnv]> = [
  ["SQLite", () => ({})],
  ["Redis", () => ({ REDIS_URL: redis.url, REDIS_PREFIX: `crewbot-insights-${Date.now()}-${Math.random().toString(36).slice(2)}` })],
];

const SYNC = "review:\n  debounceSeconds: 0\n";
const edit = (pairs: Array<[number, string]>) => pairs.reduce((text, [n, value]) => text.replace(`const line${n} = ${n};`, `const line${n} = ${value};`), GREET);
const OPENED_DAYS_AGO = 3;
/** Each review's model call: 10,000 tokens in, 1,000 out, at the default model's price. */
const USAGE = { input_tokens: 10_000, output_tokens: 1_000 };

/** A pull_request event for PR #1, opened three days ago. */
function pullEvent(action: "opened" | "synchronize" | "closed", headSha: string, stack: Stack, number = 1) {
  const payload = pullRequestEvent(action, { headSha, cloneUrl: stack.cloneUrl, number });
  payload.pull_request.created_at = new Date(Date.now() - OPENED_DAYS_AGO * 86_400_000).toISOString();
  return payload;
}

/** The review job of an opened or pushed PR #1, run to its end. */
const deliverPull = (stack: Stack, action: "opened" | "synchronize", headSha: string, id: string) => stack.runToEnd("pull_request", pullEvent(action, headSha, stack), id);

/** A pull request (#1 unless named) merged now: the handler is done when this returns. */
async function deliverMerge(stack: Stack, headSha: string, id: string, number = 1): Promise<void> {
  const payload = pullEvent("closed", headSha, stack, number);
  payload.pull_request.merged = true;
  payload.pull_request.closed_at = new Date().toISOString();
  await stack.probot.receive({ id, name: "pull_request", payload } as never);
}

async function insightsReply(stack: Stack): Promise<string[]> {
  const payload = issueCommentCreated("/crewbot insights", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
  payload.issue.pull_request = { url: `${API}${REPO_PATH}/pulls/1` };
  payload.issue.number = 1;
  const replies: string[] = [];
  nock(API)
    .post(`${REPO_PATH}/issues/1/comments`, (b) => (replies.push(b.body), true))
    .reply(201, { id: 9100 });
  await stack.probot.receive({ id: "insights-comment", name: "issue_comment", payload } as never);
  await stack.crewbot.background.idle();
  return replies;
}

describe.each(backends)("quality measured in production on %s", (_name, envOf) => {
  it("a merged pull request's findings end fixed or open; /crewbot insights answers with the month's table; the metrics count the ends", async () => {
    const stack = await startStack(
      [
        { text: "## Warnings\n- greet.js:10 - `line10` is now a string.\n- greet.js:20 - `line20` shadows a global.\n## Summary\nTwo.", usage: USAGE },
        { text: "## Warnings\n- greet.js:20 - `line20` shadows a global.\n- greet.js:30 - `line30` is too big.\n## Summary\nAgain.", usage: USAGE },
      ],
      { files: { "greet.js": GREET }, env: envOf() },
    );
    gitSync(stack.remoteDir, "branch", "feature");
    const first = await push(stack, { "greet.js": edit([[10, '"10"'], [20, "window"]]) }, "first");
    const t: Traffic = { reviews: [], checks: [], rejected: [], graphql: new GitHubGraphql() };
    mockReviewJob(stack, t, { checkId: 801, review: true });
    expect((await deliverPull(stack, "opened", first, "insights-opened")).state).toBe("succeeded");

    // The push fixes line 10 (crewbot resolves its thread) and changes line 30.
    const second = await push(stack, { "greet.js": edit([[20, "window"], [30, "300"]]) }, "fix line 10");
    mockReviewJob(stack, t, { checkId: 802, review: true, cached: true, config: SYNC, graphql: 2 });
    expect((await deliverPull(stack, "synchronize", second, "insights-sync")).state).toBe("succeeded");
    expect(t.graphql!.resolvedByMutation).toHaveLength(1);

    // Merged: one read of crewbot's threads, nothing written.
    t.graphql!.intercept(1);
    await deliverMerge(stack, second, "insights-merged");
    expect(t.graphql!.requests.slice(-1).map((r) => /^query (\w+)/.exec(r.query.trim())?.[1])).toEqual(["ReviewThreads"]);
    // The same delivery again reads nothing; nor does a pull request crewbot kept no findings for (nock refuses any request).
    await deliverMerge(stack, second, "insights-merged");
    await deliverMerge(stack, second, "insights-other-merged", 2);

    const [reply] = await insightsReply(stack);
    expect(reply).toBe(
      [
        "**crewbot insights** for Codertocat/Hello-World",
        "",
        "| | Last 30 days |",
        "|---|---:|",
        "| Reviews | 2 |",
        "| Findings posted | 3 |",
        "| Resolution rate (reproduced / unverified / all) | – / 33% / 33% |",
        "| Dismissal rate (reproduced / unverified / all) | – / 0% / 0% |",
        "| Cost | $0.0600 ($0.0300 per review) |",
        "| Median time to first review | 3.0 days (1 pull request) |",
        "",
        "Resolution: findings fixed by a push ÷ findings posted, on pull requests merged in the period. " +
          "Dismissal: findings a writer dismissed or resolved without a change ÷ findings posted, on pull requests merged or closed in the period. " +
          "– when there was nothing to count.",
        "Week by week: https://crewbot.example.com/insights",
      ].join("\n"),
    );

    // What /metrics serves: the ends, the reviews and the first review, with no repository or person in a label.
    const metrics = await stack.crewbot.services.observe.metrics.registry.metrics();
    expect(metrics).toContain('crewbot_findings_ended_total{end="fixed",verified="unverified",merged="true"} 1');
    expect(metrics).toContain('crewbot_findings_ended_total{end="open",verified="unverified",merged="true"} 2');
    expect(metrics).toContain("crewbot_reviews_total 2");
    expect(metrics).toContain("crewbot_first_review_seconds_count 1");
    expect(metrics).not.toMatch(/crewbot_(findings|reviews|first_review)[^\n]*(Hello-World|Codertocat)/i);
  });

  it("a fix merged before a review saw it counts as fixed: read from GitHub's compare of the finding's commit with the closing head", async () => {
    const stack = await startStack([{ text: "## Warnings\n- greet.js:10 - `line10` is now a string.\n- greet.js:20 - `line20` shadows a global.\n## Summary\nTwo.", usage: USAGE }], {
      files: { "greet.js": GREET },
      env: envOf(),
    });
    gitSync(stack.remoteDir, "branch", "feature");
    const first = await push(stack, { "greet.js": edit([[10, '"10"'], [20, "window"]]) }, "first");
    const t: Traffic = { reviews: [], checks: [], rejected: [], graphql: new GitHubGraphql() };
    mockReviewJob(stack, t, { checkId: 811, review: true });
    expect((await deliverPull(stack, "opened", first, "late-opened")).state).toBe("succeeded");

    // Line 10 fixed and merged at once: no review of this head ran.
    const second = await push(stack, { "greet.js": edit([[20, "window"]]) }, "fix line 10");
    const diff = gitSync(stack.remoteDir, "diff", first, second);
    nock(API)
      .get(`${REPO_PATH}/compare/${first}...${second}`)
      .query({ per_page: 1 })
      .reply(200, { status: "ahead", ahead_by: 1, behind_by: 0, files: [] })
      .get(`${REPO_PATH}/compare/${first}...${second}`)
      .matchHeader("accept", /application\/vnd\.github\.v3\.diff/)
      .reply(200, diff, { "content-type": "text/plain; charset=utf-8" });
    t.graphql!.intercept(1);
    await deliverMerge(stack, second, "late-merged");

    const [reply] = await insightsReply(stack);
    expect(reply).toContain("| Findings posted | 2 |");
    expect(reply).toContain("| Resolution rate (reproduced / unverified / all) | – / 50% / 50% |");
    expect(reply).toContain("| Dismissal rate (reproduced / unverified / all) | – / 0% / 0% |");
  });
});
