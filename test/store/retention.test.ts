/**
 * Retention (CREWBOT_RETENTION_DAYS): ended jobs with their delivery ids, review records, usage rows,
 * job directories — on SQLite and on Redis — deleted once older than the period, never a queued or
 * running job; the queue-depth counts are exact past 1000; one sweep logs what each target deleted.
 */
import { mkdir, readdir, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { sqliteInstallationsTargets } from "../../src/store/sqlite/installations-retention.js";
import type { JobQueue } from "../../src/queue/job-queue.js";
import { RedisQueue } from "../../src/store/redis/job-queue.js";
import { RedisReviewStore } from "../../src/store/redis/review-store.js";
import { activeIn, DAY_MS, describeCounts, jobDirsTarget, jobsTarget, reviewsTarget, startRetention } from "../../src/store/retention.js";
import type { ReviewStore } from "../../src/review/review-store.js";
import { openDatabase } from "../../src/store/sqlite/database.js";
import { SqliteQueue } from "../../src/store/sqlite/job-queue.js";
import { SqliteReviewStore } from "../../src/store/sqlite/review-store.js";
import { LIMITS, newJob, tempDataDir } from "../queue/helpers.js";
import { startRedis } from "../queue/redis-server.js";

const server = await startRedis();
afterAll(() => server.stop());

const T0 = 1_800_000_000_000;
let prefixes = 0;

interface Stores {
  queue: JobQueue;
  reviews: ReviewStore;
  dataDir: string;
  clock: { now: number };
}

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function open(kind: "sqlite" | "redis"): Promise<Stores> {
  const dataDir = await tempDataDir();
  const clock = { now: T0 };
  const now = () => clock.now;
  const prefix = `crewbot-retention-${process.pid}-${++prefixes}`;
  const queue = kind === "sqlite" ? new SqliteQueue({ dataDir, now }) : await RedisQueue.connect({ url: server.url, prefix, now });
  const reviews = kind === "sqlite" ? new SqliteReviewStore({ dataDir, now }) : new RedisReviewStore({ url: server.url, prefix, now, retentionDays: 30 });
  opened.push(queue, reviews);
  return { queue, reviews, dataDir, clock };
}

/** Enqueues, claims and ends a job at `clock.now`. */
async function endedJob(s: Stores, opts: { number?: number; deliveryId?: string } = {}): Promise<string> {
  const { job } = await s.queue.enqueue(newJob({ number: opts.number ?? 1, deliveryId: opts.deliveryId }));
  const claimed = await s.queue.claim("w", LIMITS);
  expect(claimed?.id).toBe(job.id);
  await s.queue.finish(job.id, "succeeded", "✅ Done");
  return job.id;
}

describe.each(["sqlite", "redis"] as const)("%s: retention", (kind) => {
  it("deletes ended jobs older than the cutoff with their delivery ids, never queued or running ones", async () => {
    const s = await open(kind);
    const old = await endedJob(s, { number: 1, deliveryId: "old-delivery" });
    s.clock.now = T0 + 10 * DAY_MS;
    const recent = await endedJob(s, { number: 4 });
    // Old, but not ended: never deleted, however long they wait.
    const { job: running } = await s.queue.enqueue(newJob({ number: 2 }));
    await s.queue.claim("w", LIMITS);
    const { job: queued } = await s.queue.enqueue(newJob({ number: 3 }));
    s.clock.now = T0 + 35 * DAY_MS;

    expect(await s.queue.prune(s.clock.now - 30 * DAY_MS)).toEqual([old]);
    expect(await s.queue.get(old)).toBeUndefined();
    for (const id of [running.id, queued.id, recent]) expect(await s.queue.get(id)).toBeDefined();
    expect((await s.queue.listRecent({ limit: 100 })).map((j) => j.id).sort()).toEqual([running.id, queued.id, recent].sort());
    expect(await s.queue.listRecent({ targetKey: "octo/hello#1" })).toEqual([]);
    // The delivery id is forgotten with its job: the same id is a new delivery now.
    expect((await s.queue.enqueue(newJob({ number: 1, deliveryId: "old-delivery" }))).duplicate).toBe(false);
    expect(await s.queue.prune(s.clock.now - 30 * DAY_MS)).toEqual([]); // idempotent
  });

  it("counts every job in a state, past 1000", async () => {
    const s = await open(kind);
    for (let i = 0; i < 1005; i++) await s.queue.enqueue(newJob({ number: i + 1 }));
    expect(await s.queue.count("queued")).toBe(1005);
    expect(await s.queue.count("running")).toBe(0);
    await s.queue.claim("w", LIMITS);
    expect(await s.queue.count("queued")).toBe(1004);
    expect(await s.queue.count("running")).toBe(1);
  });

  it("forgets review records not written since the cutoff", async () => {
    const s = await open(kind);
    await s.reviews.record("octo/hello", 1, "sha-1", ["a"]);
    s.clock.now = T0 + 40 * DAY_MS;
    await s.reviews.record("octo/hello", 2, "sha-2", ["b"]);
    expect(await s.reviews.prune(s.clock.now - 30 * DAY_MS)).toBe(1);
    expect(await s.reviews.get("octo/hello", 1)).toBeUndefined();
    expect(await s.reviews.get("octo/hello", 2)).toMatchObject({ headSha: "sha-2" });
  });

  it("removes the job directories of the jobs it deletes", async () => {
    const s = await open(kind);
    const id = await endedJob(s);
    await mkdir(path.join(s.dataDir, "jobs", id, "artifacts"), { recursive: true });
    await writeFile(path.join(s.dataDir, "jobs", id, "artifacts", "out.txt"), "x");
    s.clock.now = T0 + 31 * DAY_MS;
    expect(await jobsTarget(s.queue, s.dataDir).prune(s.clock.now - 30 * DAY_MS, s.clock.now)).toBe(1);
    expect(await readdir(path.join(s.dataDir, "jobs"))).toEqual([]);
  });
});

describe("redis: expiries on keys", () => {
  it("a review record's key expires after the retention period, renewed by each review", async () => {
    const prefix = `crewbot-ttl-${process.pid}`;
    const reviews = new RedisReviewStore({ url: server.url, prefix, retentionDays: 2 });
    const redis = new Redis(server.url);
    opened.push(reviews, { close: async () => void (await redis.quit()) });
    await reviews.record("octo/hello", 1, "sha-1", ["a"]);
    const ttl = await redis.pttl(`${prefix}:review:octo/hello#1`);
    expect(ttl).toBeGreaterThan(2 * DAY_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(2 * DAY_MS);
  });
});

describe("job directories", () => {
  it("removes those nothing was written to since the cutoff, keeping a queued or running job's", async () => {
    const dataDir = await tempDataDir();
    const now = Date.now(); // the file system's clock
    const old = new Date(now - 40 * DAY_MS);
    for (const id of ["gone", "still-running", "fresh"]) {
      await mkdir(path.join(dataDir, "jobs", id, "artifacts"), { recursive: true });
      if (id !== "fresh") {
        await utimes(path.join(dataDir, "jobs", id, "artifacts"), old, old);
        await utimes(path.join(dataDir, "jobs", id), old, old);
      }
    }
    const target = jobDirsTarget(dataDir, async (id) => id === "still-running");
    expect(await target.prune(now - 30 * DAY_MS, now)).toBe(1);
    expect((await readdir(path.join(dataDir, "jobs"))).sort()).toEqual(["fresh", "still-running"]);
  });

  it("asks the queue whether a job is still queued or running", async () => {
    const dataDir = await tempDataDir();
    const queue = new SqliteQueue({ dataDir });
    opened.push(queue);
    const { job } = await queue.enqueue(newJob());
    const active = activeIn(queue);
    expect(await active(job.id)).toBe(true);
    await queue.finish(job.id, "cancelled", "⏹ Cancelled");
    expect(await active(job.id)).toBe(false);
    expect(await active("never-was")).toBe(false);
  });
});

describe("installation tables", () => {
  it("keeps usage rows of the current month and the retention period, and deleted installations for the period", async () => {
    const dataDir = await tempDataDir();
    const { db } = openDatabase({ dataDir });
    const now = Date.UTC(2026, 11, 10);
    const usage = db.prepare("INSERT INTO job_usage (job_id, installation_id, started_at, cost_usd) VALUES (?, 1, ?, 1)");
    usage.run("very-old", Date.UTC(2026, 9, 1)); // 70 days: gone
    usage.run("this-month", Date.UTC(2026, 11, 1)); // kept
    usage.run("last-month", Date.UTC(2026, 10, 20)); // 20 days: kept
    const installation = db.prepare("INSERT INTO installations (id, account, state, updated_at) VALUES (?, 'octo', ?, ?)");
    installation.run(1, "deleted", now - 40 * DAY_MS); // gone
    installation.run(2, "deleted", now - 5 * DAY_MS);
    installation.run(3, "active", now - 400 * DAY_MS); // an installation still there is never deleted
    db.close();

    const [usageTarget, installationsTarget] = sqliteInstallationsTargets(dataDir);
    expect(await usageTarget!.prune(now - 30 * DAY_MS, now)).toBe(1);
    expect(await installationsTarget!.prune(now - 30 * DAY_MS, now)).toBe(1);
    // A short period still keeps what this month's budget counts.
    expect(await usageTarget!.prune(now - 1 * DAY_MS, now)).toBe(1);
    const check = openDatabase({ dataDir }).db;
    expect((check.prepare("SELECT job_id FROM job_usage").all() as Array<{ job_id: string }>).map((r) => r.job_id)).toEqual(["this-month"]);
    expect((check.prepare("SELECT id FROM installations ORDER BY id").all() as Array<{ id: number }>).map((r) => r.id)).toEqual([2, 3]);
    check.close();
  });
});

describe("the sweep", () => {
  it("runs at start, then on its interval; logs what each target deleted; a failing target does not stop the others", async () => {
    const infos: string[] = [];
    const warnings: string[] = [];
    const seen: number[] = [];
    const retention = startRetention({
      days: 30,
      now: () => T0,
      everyMs: 60_000,
      log: { info: (m) => infos.push(m), warn: (m) => warnings.push(m) },
      targets: [
        { name: "ended jobs", prune: async (before) => (seen.push(before), 3) },
        { name: "review records", prune: async () => Promise.reject(new Error("disk on fire")) },
        { name: "mirrors", prune: async () => 1 },
      ],
    });
    const counts = await retention.sweep(); // joins the sweep started at once
    await retention.stop();
    expect(seen[0]).toBe(T0 - 30 * DAY_MS);
    expect(counts).toEqual({ "ended jobs": 3, mirrors: 1 });
    expect(infos[0]).toBe("retention (30 days): deleted 3 ended jobs, 1 mirrors");
    expect(warnings).toEqual(["retention: pruning review records failed: disk on fire"]);
  });

  it("words an empty sweep", () => {
    expect(describeCounts({})).toBe("nothing to delete");
  });

  it("the reviews target is the store's prune", async () => {
    const dataDir = await tempDataDir();
    const store = new SqliteReviewStore({ dataDir, now: () => T0 });
    opened.push(store);
    await store.record("octo/hello", 1, "sha", []);
    expect(await reviewsTarget(store).prune(T0 + 1, T0 + 1)).toBe(1);
  });
});
