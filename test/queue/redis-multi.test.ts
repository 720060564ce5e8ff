/** Several RedisQueue instances — several workers, as on several machines — sharing one Redis. */
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { INTERRUPTED_OUTCOME, type JobQueue } from "../../src/queue/job-queue.js";
import { openStores } from "../../src/store/open-stores.js";
import { RedisQueue } from "../../src/store/redis/job-queue.js";
import { targetKey, type JobRecord } from "../../src/queue/types.js";
import { LIMITS, newJob, redisPrefixFor, tempDataDir } from "./helpers.js";
import { Runners, ended, untilAborted } from "./runner-helpers.js";
import { startRedis } from "./redis-server.js";
import type { SqliteQueue } from "../../src/store/sqlite/job-queue.js";

const server = await startRedis();
afterAll(() => server.stop());

const opened: Array<{ close(): Promise<void> }> = [];
const runners = new Runners();
afterEach(async () => {
  await runners.stopAll();
  await Promise.all(opened.splice(0).map((q) => q.close()));
});

/** `n` workers' queues on one fresh prefix. */
async function workers(n: number, now?: () => number): Promise<RedisQueue[]> {
  const prefix = redisPrefixFor(await tempDataDir());
  return Array.from({ length: n }, () => {
    const q = new RedisQueue({ url: server.url, prefix, ...(now ? { now } : {}) });
    opened.push(q);
    return q;
  });
}

/** Claims and finishes until nothing is claimable, from every queue at once (`per` claimers each). */
async function drain(queues: JobQueue[], per: number): Promise<string[]> {
  const wide = { perInstallation: 10_000, global: 10_000, leaseMs: 60_000 };
  const claimed: string[] = [];
  await Promise.all(
    queues.flatMap((q, i) =>
      Array.from({ length: per }, async (_, j) => {
        const workerId = `w${i}.${j}`;
        for (;;) {
          const job = await q.claim(workerId, wide);
          if (!job) return;
          claimed.push(job.id);
          await q.finish(job.id, "succeeded", "✅ Done", { workerId, attempt: job.attempts });
        }
      }),
    ),
  );
  return claimed;
}

describe("RedisQueue: several workers", () => {
  it("never gives one job to two workers racing to claim", async () => {
    const qs = await workers(3);
    const ids = new Set<string>();
    for (let n = 0; n < 150; n++) ids.add((await qs[n % 3]!.enqueue(newJob({ number: n % 60, inst: 1 + (n % 4) }))).job.id);
    const claimed = await drain(qs, 3);
    expect(claimed).toHaveLength(ids.size);
    expect(new Set(claimed)).toEqual(ids);
    for (const job of await qs[0]!.listRecent({ limit: 1000 })) expect(job).toMatchObject({ state: "succeeded", attempts: 1 });
  });

  it("keeps the per-installation and global limits over all workers, claiming at once", async () => {
    const qs = await workers(3);
    for (let n = 1; n <= 6; n++) await qs[0]!.enqueue(newJob({ inst: 1, number: n }));
    for (let n = 1; n <= 6; n++) await qs[1]!.enqueue(newJob({ inst: 2, number: n }));
    const limits = { perInstallation: 2, global: 3, leaseMs: 60_000 };
    const tries = qs.flatMap((q, i) => Array.from({ length: 4 }, (_, j) => q.claim(`w${i}.${j}`, limits)));
    const claimed = (await Promise.all(tries)).filter((j): j is JobRecord => j !== undefined);
    expect(claimed).toHaveLength(3);
    const perInst = new Map<number, number>();
    for (const j of claimed) perInst.set(j.target.installationId, (perInst.get(j.target.installationId) ?? 0) + 1);
    expect(Math.max(...perInst.values())).toBe(2);
    expect(await qs[2]!.listRecent({ state: "running" })).toHaveLength(3);
    const busy = claimed[0]!;
    // One running job per target, whoever claims: with the limits wide open, all but the job behind one runs.
    const behind = (await qs[0]!.enqueue({ ...newJob({ inst: busy.target.installationId }), target: busy.target })).job;
    const wide = { perInstallation: 100, global: 100, leaseMs: 60_000 };
    const rest = await Promise.all(qs.flatMap((q, i) => Array.from({ length: 5 }, (_, j) => q.claim(`x${i}.${j}`, wide))));
    const restIds = rest.filter((j): j is JobRecord => j !== undefined).map((j) => j.id);
    expect(restIds).toHaveLength(12 - 3);
    expect(restIds).not.toContain(behind.id);
    expect(await qs[1]!.activeOn(targetKey(busy.target))).toEqual([
      expect.objectContaining({ id: busy.id, state: "running" }),
      expect.objectContaining({ id: behind.id, state: "queued" }),
    ]);
  });

  it("dedups one delivery enqueued by two workers at once, and again after it ended", async () => {
    const [a, b] = await workers(2);
    const job = newJob({ deliveryId: "guid-1234" });
    const results = await Promise.all([a!.enqueue(job), b!.enqueue({ ...job, kind: "review" })]);
    expect(results.map((r) => r.duplicate).sort()).toEqual([false, true]);
    expect(results[0]!.job).toEqual(results[1]!.job);
    expect(await a!.count("queued")).toBe(1);
    const claimed = await b!.claim("w", LIMITS);
    await a!.finish(claimed!.id, "succeeded", "✅ Done");
    expect((await a!.enqueue(job)).duplicate).toBe(true);
    expect(await a!.count("queued")).toBe(0);
  });

  it("keeps a delivery id that looks like a number as it is", async () => {
    const [a] = await workers(1);
    const { job } = await a!.enqueue(newJob({ deliveryId: "12345" }));
    expect(job.deliveryId).toBe("12345");
    expect((await a!.enqueue(newJob({ deliveryId: "12345" }))).duplicate).toBe(true);
    expect(await a!.get(job.id)).toMatchObject({ id: job.id, deliveryId: "12345", kind: "plan", state: "queued" });
  });

  it("a cancel requested through one worker reaches the other's heartbeat", async () => {
    const [a, b] = await workers(2);
    const { job } = await a!.enqueue(newJob());
    await a!.claim("wa", LIMITS);
    const holder = { workerId: "wa", attempt: 1 };
    expect(await a!.heartbeat(job.id, holder)).toEqual({ held: true, cancelRequested: false });
    const affected = await b!.requestCancel(targetKey(job.target), "bob");
    expect(affected).toEqual([expect.objectContaining({ id: job.id, state: "running", cancelRequested: true })]);
    expect(await a!.heartbeat(job.id, holder)).toEqual({ held: true, cancelRequested: true, cancelledBy: "bob" });
  });

  it("a runner aborts its job when another worker's runner cancels it", async () => {
    const [a, b] = await workers(2);
    const { job } = await a!.enqueue(newJob());
    const ra = runners.make(a as unknown as SqliteQueue, async (_j, ctx) => untilAborted(ctx.signal));
    const rb = runners.make(b as unknown as SqliteQueue, async () => ({ state: "succeeded", outcome: "✅ Done" }));
    await ra.start();
    await vi.waitFor(() => expect(ra.running).toEqual([job.id]));
    await rb.start();
    await rb.cancel(targetKey(job.target), "carol");
    expect(await ended(b as unknown as SqliteQueue, job.id)).toMatchObject({ state: "cancelled", outcome: "⏹ Cancelled by @carol" });
  });

  it("a job whose worker died is recovered by another worker when its lease runs out", async () => {
    let now = 1_000;
    const [a, b] = await workers(2, () => now);
    const early = (await a!.enqueue(newJob({ number: 1 }))).job;
    const started = (await a!.enqueue(newJob({ number: 2 }))).job;
    await a!.claim("dead", { ...LIMITS, leaseMs: 500 });
    await a!.claim("dead", { ...LIMITS, leaseMs: 500 });
    await a!.update(started.id, { agentsStarted: true });
    await a!.close(); // the worker is gone
    now = 1_499;
    expect(await b!.recoverStale()).toEqual({ requeued: [], interrupted: [] });
    now = 1_500;
    const { requeued, interrupted } = await b!.recoverStale();
    expect(requeued.map((j) => [j.id, j.state, j.attempts])).toEqual([[early.id, "queued", 1]]);
    expect(interrupted.map((j) => [j.id, j.state, j.outcome])).toEqual([[started.id, "failed", INTERRUPTED_OUTCOME]]);
    expect(await b!.claim("b", LIMITS)).toMatchObject({ id: early.id, attempts: 2, workerId: "b" });
  });

  it("a runner reruns a job whose worker's lease ran out", async () => {
    const [a, b] = await workers(2);
    const { job } = await a!.enqueue(newJob());
    await a!.claim("dead", { ...LIMITS, leaseMs: 100 });
    const rb = runners.make(b as unknown as SqliteQueue, async () => ({ state: "succeeded", outcome: "✅ Done" }), {
      recoverEveryMs: 30,
    });
    await rb.start();
    expect(await ended(b as unknown as SqliteQueue, job.id)).toMatchObject({ state: "succeeded", attempts: 2 });
  });
});

describe("openStores", () => {
  it("opens SQLite without REDIS_URL", async () => {
    const opened = await openStores({}, await tempDataDir());
    try {
      expect(opened.kind).toBe("sqlite");
      const { job } = await opened.queue.enqueue(newJob());
      expect(await opened.queue.get(job.id)).toMatchObject({ state: "queued" });
      await opened.reviews.record("octo/hello", 1, "sha", ["a"]);
      expect(await opened.reviews.get("octo/hello", 1)).toMatchObject({ headSha: "sha" });
    } finally {
      await opened.close();
    }
  });

  it("opens Redis with REDIS_URL, under REDIS_PREFIX, and two openings share their jobs", async () => {
    const env = { REDIS_URL: server.url, REDIS_PREFIX: redisPrefixFor(await tempDataDir()) };
    const one = await openStores(env, await tempDataDir());
    const two = await openStores(env, await tempDataDir());
    try {
      expect([one.kind, two.kind]).toEqual(["redis", "redis"]);
      const { job } = await one.queue.enqueue(newJob());
      expect(await two.queue.claim("w", LIMITS)).toMatchObject({ id: job.id });
      await one.reviews.record("octo/hello", 1, "sha", ["a"]);
      expect(await two.reviews.get("octo/hello", 1)).toMatchObject({ headSha: "sha", fingerprints: ["a"] });
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});
