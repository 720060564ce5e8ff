/**
 * The sticky gate end to end (`review.failOn: critical`): once crewbot found a critical finding,
 * the `crewbot/review` check stays red until the finding is closed — a push that changes its
 * lines, or a writer's resolution or dismissal. A docs-only push, "Update branch", and every kind
 * of skipped review (untrusted author, WIP title, ignored label) conclude `failure` listing the
 * open finding while it is open, and `neutral` when nothing is. A resolution by someone without
 * write permission does not count, and crewbot says so in the thread once.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import nock from "nock";
import { describe, expect, it } from "vitest";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { GitHubGraphql } from "../helpers/github-graphql.js";
import { API, mockPermission, REPO_PATH, startStack, type Stack } from "./harness.js";
import { deliver, GREET, mockReviewJob, push, type Traffic } from "./review-harness.js";

useNock();

const CONFIG = "review:\n  failOn: critical\n  debounceSeconds: 0\n  ignoreTitles: [WIP]\n  ignoreLabels: [no-review]\n";
const CRITICAL = "## Critical\n- greet.js:10 - `line10` is a string now.\n## Summary\nBroken.";
const CLEAN = "## Summary\nNothing wrong.";
/** crewbot's first thread in the GraphQL stand-in (its comment ids start at 9000). */
const THREAD_URL = "https://github.com/Codertocat/Hello-World/pull/1#discussion_r9000";
const openCritical = (url: string) =>
  `- Failing: 1 open critical finding (review.failOn: critical):\n  - **Critical** \`greet.js:10\` — \`line10\` is a string now. ([thread](${url}))`;
const PASSING = "- Passing: no open critical finding (review.failOn: critical).";

/** PR #1 reviewed once on opening: with a critical finding on greet.js:10, or clean. */
async function reviewedOnce(first: string, later: string[] = [CLEAN]): Promise<{ stack: Stack; t: Traffic; head: string }> {
  const stack = await startStack([{ text: first }, ...later.map((text) => ({ text }))], { files: { "greet.js": GREET } });
  gitSync(stack.remoteDir, "branch", "feature");
  const head = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";') }, "feature");
  const t: Traffic = { reviews: [], checks: [], rejected: [], graphql: new GitHubGraphql() };
  mockReviewJob(stack, t, { checkId: 500, review: first !== CLEAN, config: CONFIG });
  const job = await deliver(stack, "opened", head, "sticky-opened");
  expect(job.state).toBe("succeeded");
  expect(t.checks.at(-1)!.body.conclusion).toBe(first === CLEAN ? "success" : "failure");
  t.checks.length = 0;
  return { stack, t, head };
}

const docsPush = (stack: Stack, n = 1) => push(stack, { [`docs-${n}.md`]: `# Notes ${n}\n` }, `docs ${n}`);

/** The first paragraph of a check run's summary: its bullets, without the figures line. */
const bullets = (check: { body: any }) => (check.body.output.summary as string).split("\n\n")[0];
/** The review's cost bullet, with the cost of the check run's figures line (the fake model's cost varies with the prompt). */
const costBullet = (check: { body: any }) => `- Cost: ${/ · (~?\$[\d.]+)/.exec((check.body.output.summary as string).split("\n\n")[1]!)![1]} (effort: standard).`;

describe("the gate counts every open finding, not only the latest review's", () => {
  it("a docs-only push after a critical finding: the clean incremental review fails, listing the open finding with its thread", async () => {
    const { stack, t, head } = await reviewedOnce(CRITICAL);
    const second = await docsPush(stack);
    mockReviewJob(stack, t, { checkId: 501, cached: true, config: CONFIG, graphql: 1 });
    const job = await deliver(stack, "synchronize", second, "sticky-docs");

    expect(job.outcome).toBe("✅ Done · no findings");
    const done = t.checks.at(-1)!;
    expect(done.body).toMatchObject({ status: "completed", conclusion: "failure", output: { title: "No new findings · 1 open critical finding" } });
    expect(bullets(done)).toBe(
      [
        `- Incremental review: the commits ${head.slice(0, 7)}..${second.slice(0, 7)} since the last review.`,
        "- Reviewed 1 of 1 changed file.",
        "- No findings: no review was posted.",
        costBullet(done),
        openCritical(THREAD_URL),
      ].join("\n"),
    );
  });

  it("a push that changes the finding's line closes it: the check passes", async () => {
    const { stack, t } = await reviewedOnce(CRITICAL);
    const fixed = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", "const line10 = 10 + 0;") }, "fix");
    mockReviewJob(stack, t, { checkId: 502, cached: true, config: CONFIG, graphql: 2 });
    await deliver(stack, "synchronize", fixed, "sticky-fixed");

    expect(t.graphql!.resolvedByMutation).toEqual([t.graphql!.threads[0]!.id]);
    expect(t.checks.at(-1)!.body).toMatchObject({ conclusion: "success", output: { title: "No findings" } });
    expect(bullets(t.checks.at(-1)!)).toContain(PASSING);

    // A later skipped review (no checkout) still knows it fixed: GitHub names no person for crewbot's own resolution.
    t.checks.length = 0;
    const wip = await docsPush(stack);
    mockReviewJob(stack, t, { checkId: 510, cached: true, config: CONFIG, graphql: 1, context: false });
    await deliver(stack, "synchronize", wip, "sticky-fixed-wip", { headSha: wip, title: "WIP: more" });
    expect(t.checks[0]!.body).toMatchObject({ conclusion: "neutral", output: { title: "Skipped" } });
  });

  it('"Update branch" (a push that only merges the base) fails while the critical is open, and is neutral without one', async () => {
    for (const [first, conclusion, line] of [
      [CRITICAL, "failure", openCritical(THREAD_URL)],
      [CLEAN, "neutral", PASSING],
    ] as const) {
      const { stack, t, head } = await reviewedOnce(first);
      gitSync(stack.remoteDir, "checkout", "-q", "main");
      await writeFile(path.join(stack.remoteDir, "base.md"), "# from the base\n");
      gitSync(stack.remoteDir, "add", "-A");
      gitSync(stack.remoteDir, "commit", "-q", "-m", "the base moves on");
      gitSync(stack.remoteDir, "checkout", "-q", "feature");
      gitSync(stack.remoteDir, "-c", "user.name=T", "-c", "user.email=t@example.com", "merge", "-q", "--no-edit", "main");
      const merged = gitSync(stack.remoteDir, "rev-parse", "HEAD").trim();
      gitSync(stack.remoteDir, "update-ref", "refs/pull/1/head", merged);
      gitSync(stack.remoteDir, "checkout", "-q", "main");
      mockReviewJob(stack, t, { checkId: 503, cached: true, config: CONFIG, graphql: 1 });
      const job = await deliver(stack, "synchronize", merged, `sticky-update-${conclusion}`);

      const nothing = `the commits since the last review (${head.slice(0, 7)}..${merged.slice(0, 7)}) only bring in changes of the base branch`;
      expect(job.outcome).toBe(`✅ Done · nothing to review: ${nothing}`);
      expect(t.checks.at(-1)!.body).toMatchObject({
        conclusion,
        output: { title: conclusion === "failure" ? "Nothing new to review · 1 open critical finding" : "Nothing to review" },
      });
      expect(bullets(t.checks.at(-1)!)).toBe([`- Incremental review: the commits ${head.slice(0, 7)}..${merged.slice(0, 7)} since the last review.`, `- Nothing to review: ${nothing}.`, line].join("\n"));
    }
  });
});

describe("a skipped review is neutral only when nothing at the gate's level is open", () => {
  const skips: Array<[string, Parameters<typeof deliver>[4], string]> = [
    [
      "an untrusted author",
      { headSha: "", association: "CONTRIBUTOR" },
      "@Codertocat is not a trusted author (author_association CONTRIBUTOR; review.authors: trusted reviews pull requests by owners, members and collaborators); a maintainer can comment /review, or set review.authors: everyone",
    ],
    ["a WIP title", { headSha: "", title: "WIP: friendlier greeting" }, 'the title contains "WIP" (review.ignoreTitles)'],
    ["an ignored label", { headSha: "", labels: ["no-review"] }, 'the pull request has the label "no-review" (review.ignoreLabels)'],
  ];

  it.each(skips)("%s, with the critical still open: failure, listing it", async (_what, event, reason) => {
    const { stack, t } = await reviewedOnce(CRITICAL);
    const second = await docsPush(stack);
    mockReviewJob(stack, t, { checkId: 504, cached: true, config: CONFIG, graphql: 1, context: false });
    const job = await deliver(stack, "synchronize", second, "sticky-skip-open", { ...event, headSha: second });

    expect(job.outcome).toBe(`✅ Skipped: ${reason}`);
    expect(t.checks.map((c) => c.method)).toEqual(["POST"]);
    expect(t.checks[0]!.body).toMatchObject({ head_sha: second, status: "completed", conclusion: "failure" });
    expect(t.checks[0]!.body.output).toEqual({ title: "Not reviewed · 1 open critical finding", summary: `Not reviewed automatically: ${reason}.\n\n${openCritical(THREAD_URL)}` });
    expect(stack.fake.requests).toHaveLength(1); // only the first review's
  });

  it.each(skips)("%s, with nothing open: neutral", async (_what, event, reason) => {
    const { stack, t } = await reviewedOnce(CLEAN);
    const second = await docsPush(stack);
    mockReviewJob(stack, t, { checkId: 505, cached: true, config: CONFIG, graphql: 1, context: false });
    await deliver(stack, "synchronize", second, "sticky-skip-none", { ...event, headSha: second });

    expect(t.checks[0]!.body).toMatchObject({ status: "completed", conclusion: "neutral" });
    expect(t.checks[0]!.body.output).toEqual({ title: "Skipped", summary: `Not reviewed automatically: ${reason}.\n\n${PASSING}` });
  });
});

describe("who may close a finding by resolving its thread", () => {
  it("a resolution without write permission leaves it open, and crewbot says so once — not again on a second resolution", async () => {
    const { stack, t } = await reviewedOnce(CRITICAL, [CLEAN, CLEAN]);
    const thread = t.graphql!.threads[0]!;
    t.graphql!.resolveAs(thread, "passerby");
    mockPermission("passerby", "read");
    const replies: any[] = [];
    nock(API)
      .post(`${REPO_PATH}/pulls/1/comments`, (b) => (replies.push(b), true))
      .reply((_uri, body: any) => {
        t.graphql!.reply(thread, "crewbot", body.body);
        return [201, { id: 4001, html_url: `${THREAD_URL.replace("9000", "4001")}` }];
      });
    const second = await docsPush(stack, 1);
    mockReviewJob(stack, t, { checkId: 506, cached: true, config: CONFIG, graphql: 1 });
    await deliver(stack, "synchronize", second, "sticky-passerby-1");

    expect(replies).toEqual([
      {
        body:
          "@passerby resolved this thread without write permission on the repository, so the finding stays open: it still counts for the `crewbot/review` check (review.failOn: critical). " +
          'A push that changes these lines closes it, or someone with write permission can resolve it or reply "won\'t fix".\n\n<!-- crewbot:resolution-kept -->',
        in_reply_to: 9000,
        commit_id: second,
        path: "greet.js",
      },
    ]);
    expect(t.checks.at(-1)!.body.conclusion).toBe("failure");
    expect(bullets(t.checks.at(-1)!)).toContain(openCritical(THREAD_URL));

    // Unresolved and resolved again by the same person: still open, and no second reply (nock refuses one).
    thread.isResolved = false;
    t.graphql!.resolveAs(thread, "passerby");
    t.checks.length = 0;
    const third = await docsPush(stack, 2);
    mockReviewJob(stack, t, { checkId: 507, cached: true, config: CONFIG, graphql: 1 });
    await deliver(stack, "synchronize", third, "sticky-passerby-2");

    expect(replies).toHaveLength(1);
    expect(t.checks.at(-1)!.body.conclusion).toBe("failure");
    expect(t.graphql!.resolvedByMutation).toEqual([]);
  });

  it("a writer's resolution closes it: the next review passes", async () => {
    const { stack, t } = await reviewedOnce(CRITICAL);
    t.graphql!.resolveAs(t.graphql!.threads[0]!, "Codertocat"); // write permission, known from the first job
    const second = await docsPush(stack);
    mockReviewJob(stack, t, { checkId: 508, cached: true, config: CONFIG, graphql: 1 });
    await deliver(stack, "synchronize", second, "sticky-writer");

    expect(t.checks.at(-1)!.body).toMatchObject({ conclusion: "success", output: { title: "No findings" } });
    expect(bullets(t.checks.at(-1)!)).toContain(PASSING);
  });

  it("a writer's dismissal closes it too", async () => {
    const { stack, t } = await reviewedOnce(CRITICAL);
    t.graphql!.reply(t.graphql!.threads[0]!, "octocat", "Won't fix: the string is what we want.");
    mockPermission("octocat", "write");
    const second = await docsPush(stack);
    mockReviewJob(stack, t, { checkId: 509, cached: true, config: CONFIG, graphql: 1 });
    await deliver(stack, "synchronize", second, "sticky-dismissed");

    expect(t.checks.at(-1)!.body).toMatchObject({ conclusion: "success" });
  });
});
