import { afterEach, describe, expect, it, vi } from "vitest";
import type { JobResult } from "../../src/queue/runner.js";
import { targetKey, type NewJob } from "../../src/queue/types.js";
import { LIMITS, Queues, newJob, tempDataDir } from "./helpers.js";
import { Runners, deferred, ended } from "./runner-helpers.js";

const queues = new Queues();
const runners = new Runners();
afterEach(async () => {
  await runners.stopAll();
  await queues.closeAll();
});

const reviewJob = (supersede = false): NewJob => ({ ...newJob(), kind: "review", group: "review", supersede });

describe("SqliteQueue: defer", () => {
  it("puts the holder's job back to wait: queued, new runAt, no lease, one attempt given back", async () => {
    let now = 1_000;
    const q = queues.open(await tempDataDir(), () => now);
    const { job } = await q.enqueue(newJob());
    await q.update(job.id, { progressCommentId: 9 });
    await q.claim("w", LIMITS);
    const holder = { workerId: "w", attempt: 1 };
    const back = await q.defer(job.id, holder, 5_000, "⏳ Waiting for CI");
    expect(back).toMatchObject({ id: job.id, state: "queued", runAt: 5_000, attempts: 0, outcome: "⏳ Waiting for CI" });
    expect(back?.progressCommentId).toBe(9);
    for (const k of ["workerId", "leaseExpiresAt", "startedAt", "finishedAt"] as const) expect(back?.[k]).toBeUndefined();
    // The old claim is over: it can neither keep nor end the job.
    expect(await q.heartbeat(job.id, holder)).toMatchObject({ held: false });
    expect(await q.finish(job.id, "succeeded", "✅ Done", holder)).toBeUndefined();
    expect(await q.nextRunAt()).toBe(5_000);
    expect(await q.claim("w", LIMITS)).toBeUndefined();
    now = 5_000;
    expect(await q.claim("w2", LIMITS)).toMatchObject({ id: job.id, attempts: 1, startedAt: 5_000 });
  });

  it("does nothing for a holder that lost the job", async () => {
    const q = queues.open(await tempDataDir());
    const { job } = await q.enqueue(newJob());
    await q.claim("w", LIMITS);
    await q.recoverStale(undefined, { deadWorker: "w" });
    await q.claim("w2", LIMITS);
    expect(await q.defer(job.id, { workerId: "w", attempt: 1 }, 0)).toBeUndefined();
    expect(await q.defer(job.id, { workerId: "w2", attempt: 1 }, 0)).toBeUndefined(); // not this claim
    expect(await q.get(job.id)).toMatchObject({ state: "running", workerId: "w2", attempts: 2 });
    await q.finish(job.id, "succeeded", "✅ Done");
    expect(await q.defer(job.id, { workerId: "w2", attempt: 2 }, 0)).toBeUndefined();
    expect((await q.get(job.id))?.state).toBe("succeeded");
    await expect(q.defer(job.id, { workerId: "w2", attempt: 2 }, -5)).rejects.toThrow(/runAt/);
  });

  it("does not use up crash recovery's requeue: a deferred job is still requeued once after a crash", async () => {
    const q = queues.open(await tempDataDir());
    const { job } = await q.enqueue(newJob());
    for (let i = 0; i < 3; i++) {
      const claimed = await q.claim("w", LIMITS);
      await q.defer(job.id, { workerId: "w", attempt: claimed!.attempts }, 0);
    }
    await q.claim("dead", LIMITS);
    expect((await q.recoverStale(undefined, { deadWorker: "dead" })).requeued).toEqual([
      expect.objectContaining({ id: job.id, attempts: 1 }),
    ]);
  });

  it("ends the job instead when a cancel or supersede came while it ran", async () => {
    const q = queues.open(await tempDataDir());
    const cancelled = (await q.enqueue(newJob({ number: 1 }))).job;
    const superseded = (await q.enqueue({ ...reviewJob(), target: { ...cancelled.target, number: 2 } })).job;
    await q.claim("w", LIMITS);
    await q.claim("w", LIMITS);
    await q.requestCancel(targetKey(cancelled.target), "bob");
    const { job: newer } = await q.enqueue({ ...reviewJob(true), target: superseded.target });
    expect(await q.defer(cancelled.id, { workerId: "w", attempt: 1 }, 0)).toMatchObject({
      state: "cancelled",
      outcome: "⏹ Cancelled by @bob",
    });
    expect(await q.defer(superseded.id, { workerId: "w", attempt: 1 }, 0)).toMatchObject({
      state: "cancelled",
      outcome: `⏹ Superseded by job ${newer.id}`,
    });
  });
});

describe("JobRunner: defer", () => {
  it("runs a deferred job again when its runAt comes; the deferral uses no attempt", async () => {
    const q = queues.open(await tempDataDir());
    const { job } = await q.enqueue(newJob());
    const claims: Array<{ attempts: number; runAt?: number }> = [];
    const logged = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const runner = runners.make(
      q,
      async (claimed): Promise<JobResult> => {
        claims.push({ attempts: claimed.attempts, runAt: claimed.runAt! });
        if (claims.length === 1) return { state: "deferred", runAt: Date.now() + 100, outcome: "⏳ Debouncing" };
        return { state: "succeeded", outcome: "✅ Done" };
      },
      { logger: logged }, // pollMs is an hour: only the runAt timer brings it back
    );
    await runner.start();
    expect(await ended(q, job.id)).toMatchObject({ state: "succeeded", outcome: "✅ Done", attempts: 1 });
    expect(claims).toHaveLength(2);
    expect(claims.map((c) => c.attempts)).toEqual([1, 1]);
    expect(claims[1]!.runAt).toBeGreaterThan(claims[0]!.runAt!);
    expect(logged.info).toHaveBeenCalledWith(expect.objectContaining({ jobId: job.id, outcome: "⏳ Debouncing" }), "job deferred");
  });

  it("a deferred job that a later job supersedes never runs again", async () => {
    const q = queues.open(await tempDataDir());
    const { job } = await q.enqueue(reviewJob());
    const calls: string[] = [];
    const wasDeferred = deferred();
    const runner = runners.make(q, async (claimed): Promise<JobResult> => {
      calls.push(claimed.id);
      if (claimed.id !== job.id) return { state: "succeeded", outcome: "✅ Done" };
      setImmediate(wasDeferred.resolve);
      return { state: "deferred", runAt: Date.now() + 3_600_000 };
    });
    await runner.start();
    await wasDeferred.promise;
    await vi.waitFor(async () => expect((await q.get(job.id))?.state).toBe("queued"));
    const { job: newer, superseded } = await q.enqueue(reviewJob(true));
    expect(superseded.map((j) => [j.id, j.state])).toEqual([[job.id, "cancelled"]]);
    runner.wake();
    expect(await ended(q, newer.id)).toMatchObject({ state: "succeeded" });
    expect(await q.get(job.id)).toMatchObject({ state: "cancelled", outcome: `⏹ Superseded by job ${newer.id}` });
    expect(calls).toEqual([job.id, newer.id]);
  });

  it("a job superseded while it runs ends cancelled even if its handler defers, and onInterrupted is told", async () => {
    const q = queues.open(await tempDataDir());
    const { job } = await q.enqueue(reviewJob());
    const go = deferred();
    const interrupted: string[] = [];
    const runner = runners.make(
      q,
      async (claimed): Promise<JobResult> => {
        if (claimed.id !== job.id) return { state: "succeeded", outcome: "✅ Done" };
        await go.promise;
        return { state: "deferred", runAt: 0 };
      },
      { onInterrupted: (j) => void interrupted.push(j.id), heartbeatMs: 900 },
    );
    await runner.start();
    await vi.waitFor(() => expect(runner.running).toEqual([job.id]));
    const { job: newer } = await q.enqueue(reviewJob(true));
    go.resolve();
    expect(await ended(q, job.id)).toMatchObject({ state: "cancelled", outcome: `⏹ Superseded by job ${newer.id}` });
    expect(interrupted).toEqual([job.id]);
  });

  it("treats a malformed deferral as no result", async () => {
    const q = queues.open(await tempDataDir());
    const { job } = await q.enqueue(newJob());
    const runner = runners.make(q, async () => ({ state: "deferred", runAt: "later" }) as unknown as JobResult);
    await runner.start();
    expect(await ended(q, job.id)).toMatchObject({ state: "failed", outcome: "❌ Failed: the job handler returned no result" });
  });
});
