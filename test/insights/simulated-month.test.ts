/**
 * A simulated month of pull requests on both backends, through the paths production takes: reviews
 * posted (keepReviewPosted), jobs ended (keepJobEnd), pull requests merged or closed with crewbot's
 * threads read as GraphQL gives them (keepPullRequestEnd). The figures must be exactly the ones the
 * month's findings make: resolution and dismissal rates, weeks, cost, jobs, time to first review.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { InstallationOctokit } from "../../src/github/types.js";
import type { InsightsStore } from "../../src/insights/events.js";
import { insightsSource } from "../../src/insights/source.js";
import { repoInsights } from "../../src/web/insights-html.js";
import { keepJobEnd, keepReviewPosted } from "../../src/jobs/insight-records.js";
import { keepPullRequestEnd } from "../../src/jobs/pull-request-end.js";
import { Metrics } from "../../src/metrics/metrics.js";
import type { JobRecord } from "../../src/queue/types.js";
import type { ReviewStore, StoredFinding } from "../../src/review/review-store.js";
import type { ReviewThread } from "../../src/review/thread-plan.js";
import { RedisInsights } from "../../src/store/redis/insights.js";
import { RedisReviewStore } from "../../src/store/redis/review-store.js";
import { SqliteInsights } from "../../src/store/sqlite/insights.js";
import { SqliteReviewStore } from "../../src/store/sqlite/review-store.js";
import { stubServices } from "../helpers/stub-services.js";
import { redisPrefixFor, tempDataDir } from "../queue/helpers.js";
import { startRedis } from "../queue/redis-server.js";
import { closedAfterEach } from "../store/closed-after-each.js";

const server = await startRedis();
afterAll(() => server.stop());

interface Stores {
  insights: InsightsStore;
  reviews: ReviewStore;
  close(): Promise<void>;
}

const both = (insights: InsightsStore, reviews: ReviewStore): Stores => ({ insights, reviews, close: async () => void (await Promise.all([insights.close(), reviews.close()])) });

const backends: Array<[string, (place: string) => Stores]> = [
  ["SQLite", (dataDir) => both(new SqliteInsights({ dataDir }), new SqliteReviewStore({ dataDir }))],
  ["Redis", (dir) => both(new RedisInsights({ url: server.url, prefix: redisPrefixFor(dir) }), new RedisReviewStore({ url: server.url, prefix: redisPrefixFor(dir) }))],
];

const REPO = { owner: "Octo", repo: "Hello" };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Monday 2 November 2026, 00:00 UTC: the month is four weeks from here. */
const MONTH = Date.UTC(2026, 10, 2);
const day = (n: number, hours = 9) => MONTH + n * DAY + hours * HOUR;

type End = "fixed" | "push-resolved" | "writer-reply" | "writer-resolved" | "reader-reply" | "reader-resolved" | "open";
interface Posted {
  id: string;
  reproduced?: boolean;
  end: End;
}

const print = (id: string) => id.padEnd(16, "0");

function stored(f: Posted, commit: string): StoredFinding {
  return { fingerprint: print(f.id), severity: "warning", path: "src/a.ts", line: 3, title: `finding ${f.id}`, commit, ...(f.reproduced ? { reproduced: true } : {}) };
}

/** crewbot's thread of a finding, as GraphQL gives it, after the end the month gave it. */
function thread(f: Posted): ReviewThread {
  const reply = (login: string, body: string) => ({ databaseId: 2, body, author: { login }, originalCommit: { oid: "a".repeat(40) } });
  const resolvedBy = f.end === "writer-resolved" ? { login: "wendy" } : f.end === "reader-resolved" ? { login: "ruth" } : null;
  const replies = f.end === "writer-reply" ? [reply("wendy", "Won't fix: the caller checks it.")] : f.end === "reader-reply" ? [reply("ruth", "false positive")] : [];
  return {
    ...{ id: `T_${f.id}`, isResolved: resolvedBy !== null || f.end === "push-resolved", isOutdated: false, path: "src/a.ts", line: 3, startLine: null },
    ...{ originalLine: 3, originalStartLine: null, diffSide: "RIGHT" as const, resolvedBy },
    comments: [{ databaseId: 1, body: `**Warning** — finding ${f.id}\n\n<!-- crewbot:finding:${print(f.id)} -->`, author: { login: "crewbot" }, originalCommit: { oid: "a".repeat(40) } }, ...replies],
  };
}

interface PullRequest {
  number: number;
  openedAt: number;
  /** Each review: when, and what it posted. */
  reviews: Array<{ at: number; jobId: string; costUsd: number; posted: Posted[] }>;
  closedAt: number;
  merged: boolean;
}

/** The month: what each pull request's findings became (see the expectations below). */
const PULLS: PullRequest[] = [
  // The week before the month: left out of every figure.
  { number: 10, openedAt: day(-6), reviews: [{ at: day(-6, 10), jobId: "j10", costUsd: 9, posted: [{ id: "z1", end: "fixed" }] }], closedAt: day(-4), merged: true },
  // Week 1.
  {
    number: 1,
    openedAt: day(0),
    reviews: [{ at: day(0) + 600_000, jobId: "j1", costUsd: 0.5, posted: [{ id: "a1", end: "fixed" }, { id: "b1", reproduced: true, end: "fixed" }, { id: "c1", end: "writer-reply" }, { id: "d1", end: "open" }] }],
    closedAt: day(2),
    merged: true,
  },
  {
    number: 2,
    openedAt: day(1, 10),
    reviews: [
      { at: day(1, 10.5), jobId: "j2", costUsd: 0.25, posted: [{ id: "e2", reproduced: true, end: "open" }, { id: "f2", end: "writer-resolved" }] },
      { at: day(3), jobId: "j3", costUsd: 0.25, posted: [{ id: "g2", end: "reader-resolved" }] },
    ],
    closedAt: day(4),
    merged: false,
  },
  // Week 2.
  {
    number: 3,
    openedAt: day(7),
    reviews: [{ at: day(7) + 120_000, jobId: "j4", costUsd: 0.75, posted: [{ id: "h3", reproduced: true, end: "push-resolved" }, { id: "i3", end: "fixed" }, { id: "j3", end: "reader-reply" }] }],
    closedAt: day(10),
    merged: true,
  },
  // Week 3: nothing. Week 4.
  { number: 4, openedAt: day(21), reviews: [{ at: day(21) + 300_000, jobId: "j5", costUsd: 0.25, posted: [{ id: "k4", end: "fixed" }] }], closedAt: day(23), merged: true },
];

/** Jobs that posted no review. */
const OTHER_JOBS = [
  { id: "j6", kind: "implement", state: "failed", at: day(8), costUsd: 2 },
  { id: "j7", kind: "ask", state: "cancelled", at: day(22), costUsd: 0.1 },
] as const;

function jobOf(id: string, kind: string, number: number, openedAt?: number): JobRecord {
  return {
    id,
    kind,
    target: { installationId: 1, ...REPO, number, isPullRequest: true },
    subject: { title: "t", body: "", author: "alice", ...(openedAt !== undefined ? { createdAt: new Date(openedAt).toISOString() } : {}) },
  } as JobRecord;
}

/** Returns the warnings logged: none, when every record was kept and every thread read. */
async function simulate(stores: Stores, metrics: Metrics): Promise<string[]> {
  const warnings: string[] = [];
  const byNumber = new Map<number, Posted[]>();
  const octokit = {
    graphql: async (_query: string, vars: { number: number }) => ({
      repository: { pullRequest: { reviewThreads: { pageInfo: { hasNextPage: false, endCursor: null }, nodes: (byNumber.get(vars.number) ?? []).map((f) => ({ ...thread(f), comments: { nodes: thread(f).comments } })) } } },
    }),
  } as unknown as InstallationOctokit;
  const services = stubServices({
    records: { reviews: stores.reviews, insights: stores.insights },
    observe: { log: { warn: (m: string) => warnings.push(m), info: () => {}, debug: () => {}, error: () => {} } as never, metrics },
    github: { appSlug: async () => "crewbot", permissions: { get: async (_o: unknown, _w: string, _r: string, login: string) => (login === "wendy" ? "write" : "read") } as never },
  });
  const key = `${REPO.owner}/${REPO.repo}`.toLowerCase();
  for (const pr of PULLS) {
    byNumber.set(pr.number, pr.reviews.flatMap((r) => r.posted));
    for (const [i, review] of pr.reviews.entries()) {
      const commit = String(i + 1).repeat(40);
      const posted = review.posted.map((f) => stored(f, commit));
      await stores.reviews.record(key, pr.number, commit, posted.map((f) => f.fingerprint), { posted });
      const job = jobOf(review.jobId, "review", pr.number, pr.openedAt);
      await keepReviewPosted(services, job, posted, review.at);
      await keepJobEnd(services, job, { state: "succeeded", outcome: "✅ Done" }, review.costUsd, review.at + 60_000);
    }
    // The pushes: fixed findings are marked by a later review, as the review job marks them.
    const fixed = pr.reviews.flatMap((r) => r.posted).filter((f) => f.end === "fixed" || f.end === "push-resolved");
    await stores.reviews.record(key, pr.number, "f".repeat(40), [], { fixed: fixed.map((f) => print(f.id)) });
    const what = await keepPullRequestEnd({ installationId: 1, ...REPO, number: pr.number, merged: pr.merged, headSha: "f".repeat(40), closedAt: pr.closedAt, deliveryId: `d${pr.number}` }, octokit, services);
    expect(what).toMatch(/finding ends recorded$/);
  }
  for (const j of OTHER_JOBS) await keepJobEnd(services, jobOf(j.id, j.kind, 9), { state: j.state, outcome: "…" }, j.costUsd, j.at);
  // A deferral is no end: not counted.
  await keepJobEnd(services, jobOf("j8", "review", 9), { state: "deferred", runAt: day(5) }, 0, day(5));
  await stores.insights.put("octo/other", { type: "job", key: "o1", at: day(3), kind: "ask", state: "succeeded", costUsd: 1 });
  return warnings;
}

const none = { resolution: null, dismissal: null };

describe.each(backends)("a simulated month on %s", (_name, make) => {
  const open = closedAfterEach(make);

  it("gives exactly the month's rates, costs, jobs and time to first review, and its four weeks", async () => {
    const stores = open(await tempDataDir());
    const metrics = new Metrics(undefined, { defaults: false });
    expect(await simulate(stores, metrics)).toEqual([]);
    const source = insightsSource(stores.insights);
    const month = await source.figures("octo/hello", MONTH, MONTH + 28 * DAY);

    expect(month).toEqual({
      from: MONTH,
      to: MONTH + 28 * DAY,
      reviews: 5,
      findingsPosted: 11,
      ends: { reproduced: { posted: 3, fixed: 2, dismissed: 0, open: 1 }, unverified: { posted: 8, fixed: 3, dismissed: 2, open: 3 } },
      rates: {
        reproduced: { resolution: 1, dismissal: 0 },
        unverified: { resolution: 3 / 6, dismissal: 2 / 8 },
        all: { resolution: 5 / 8, dismissal: 2 / 11 },
      },
      cost: { totalUsd: 4.1, perReviewUsd: 0.4, byKindUsd: { review: 2, implement: 2, ask: 0.1 } },
      firstReviewSeconds: { median: 450, count: 4 },
      jobs: { byKind: { review: 5, implement: 1, ask: 1 }, byOutcome: { succeeded: 5, failed: 1, cancelled: 1 } },
    });

    const weeks = await source.weeks("Octo/Hello", MONTH, MONTH + 28 * DAY);
    expect(weeks.map((w) => w.week)).toEqual(["2026-11-02", "2026-11-09", "2026-11-16", "2026-11-23"]);
    expect(weeks.map((w) => [w.reviews, w.findingsPosted, w.rates.all, w.cost.totalUsd, w.firstReviewSeconds])).toEqual([
      [3, 7, { resolution: 2 / 4, dismissal: 2 / 7 }, 1, { median: 1200, count: 2 }],
      [1, 3, { resolution: 2 / 3, dismissal: 0 }, 2.75, { median: 120, count: 1 }],
      [0, 0, none, 0, { median: null, count: 0 }],
      [1, 1, { resolution: 1, dismissal: 0 }, 0.35, { median: 300, count: 1 }],
    ]);
    expect(weeks[2]).toMatchObject({ cost: { totalUsd: 0, perReviewUsd: null, byKindUsd: {} }, jobs: { byKind: {}, byOutcome: {} }, rates: { reproduced: none, unverified: none, all: none } });
    // The page draws the stores' own weeks: six charts, the empty week a gap in the rates, not a zero.
    const page = repoInsights("Octo/Hello", 4, month, weeks);
    expect([...page.matchAll(/data-chart="([^"]+)"/g)].map((m) => m[1])).toEqual(["resolution", "dismissal", "volume", "cost", "first-review", "outcomes"]);
    expect(page).toContain('<tr><th scope="row">2026-11-16</th><td>—</td><td>—</td></tr>');
    expect(page).toContain("Octo/Hello");
    // The week before the month holds pull request #10 alone.
    expect((await source.figures("octo/hello", MONTH - 7 * DAY, MONTH)).ends.unverified).toEqual({ posted: 1, fixed: 1, dismissed: 0, open: 0 });

    expect(await source.repositories(MONTH)).toEqual(["Octo/Hello", "octo/other"]);
    const text = await metrics.registry.metrics();
    expect(text).toContain('crewbot_findings_ended_total{end="dismissed",verified="unverified",merged="false"} 1');
    expect(text).toContain('crewbot_findings_ended_total{end="fixed",verified="reproduced",merged="true"} 2');
    expect(text).toContain("crewbot_reviews_total 6");
    expect(text).toContain("crewbot_first_review_seconds_count 5");
  });

  it("prunes what is older than the cut, and keeps a pull request's first review once", async () => {
    const stores = open(await tempDataDir());
    expect(await simulate(stores, new Metrics(undefined, { defaults: false }))).toEqual([]);
    expect(await stores.insights.put("Octo/Hello", { type: "first-review", key: "1", at: day(5), number: 1, openedAt: day(4) })).toBe(false);
    expect(await stores.insights.prune(MONTH)).toBe(4); // #10: its review, first review, job and end
    expect(await stores.insights.between("octo/hello", 0, MONTH)).toEqual([]);
    expect((await insightsSource(stores.insights).figures("octo/hello", MONTH, MONTH + 28 * DAY)).firstReviewSeconds).toEqual({ median: 450, count: 4 });
  });
});
