import { afterEach, describe, expect, it, vi } from "vitest";
import { INTERRUPTED_OUTCOME } from "../../src/queue/job-queue.js";
import { JobRunner, type AbortReason, type JobHandler, type JobRunnerOptions } from "../../src/queue/runner.js";
import type { SqliteQueue } from "../../src/store/sqlite/job-queue.js";
import { targetKey, type JobRecord } from "../../src/queue/types.js";
import { Queues, newJob, tempDataDir } from "./helpers.js";
import { Runners, deferred, ended, untilAborted } from "./runner-helpers.js";

const queues = new Queues();
const runners = new Runners();
afterEach(async () => {
  await runners.stopAll();
  await queues.closeAll();
});

const makeRunner = (queue: SqliteQueue, handler: JobHandler, opts: Partial<JobRunnerOptions> = {}): JobRunner =>
  runners.make(queue, handler, opts);

describe("JobRunner", () => {
  it("runs queued jobs, one at a time per target, several targets in parallel", async () => {
    const q = queues.open(await tempDataDir());
    const a1 = (await q.enqueue(newJob({ number: 1 }))).job;
    const a2 = (await q.enqueue(newJob({ number: 1 }))).job;
    const b = (await q.enqueue(newJob({ number: 2 }))).job;
    const running = new Map<string, number>();
    let maxOnTarget = 0;
    let maxOverall = 0;
    const release = deferred();
    const runner = makeRunner(q, async (job) => {
      const key = targetKey(job.target);
      running.set(key, (running.get(key) ?? 0) + 1);
      maxOnTarget = Math.max(maxOnTarget, running.get(key)!);
      maxOverall = Math.max(maxOverall, [...running.values()].reduce((s, n) => s + n, 0));
      await release.promise;
      running.set(key, running.get(key)! - 1);
      return { state: "succeeded", outcome: `✅ Done ${job.id}` };
    });
    await runner.start();
    await vi.waitFor(() => expect(runner.running.sort()).toEqual([a1.id, b.id].sort()));
    release.resolve();
    for (const job of [a1, a2, b]) expect(await ended(q, job.id)).toMatchObject({ state: "succeeded", outcome: `✅ Done ${job.id}` });
    expect(maxOnTarget).toBe(1);
    expect(maxOverall).toBe(2);
  });

  it("starts a job enqueued after start() as soon as wake() is called", async () => {
    const q = queues.open(await tempDataDir());
    const started = vi.fn();
    const runner = makeRunner(q, async (job) => {
      started(job.id);
      return { state: "succeeded", outcome: "✅ Done" };
    });
    await runner.start();
    const { job } = await q.enqueue(newJob());
    runner.wake();
    await ended(q, job.id);
    expect(started).toHaveBeenCalledWith(job.id);
  });

  it("polls as a fallback when nobody wakes it", async () => {
    const q = queues.open(await tempDataDir());
    const runner = makeRunner(q, async () => ({ state: "succeeded", outcome: "✅ Done" }), { pollMs: 20 });
    await runner.start();
    const { job } = await q.enqueue(newJob());
    expect((await ended(q, job.id)).state).toBe("succeeded");
  });

  it("cancels a queued job at once, without running it", async () => {
    const q = queues.open(await tempDataDir());
    const blocker = (await q.enqueue(newJob({ number: 1 }))).job;
    const waiting = (await q.enqueue(newJob({ number: 2 }))).job;
    const release = deferred();
    const handler = vi.fn(async () => {
      await release.promise;
      return { state: "succeeded" as const, outcome: "✅ Done" };
    });
    const runner = makeRunner(q, handler, { limits: { global: 1 } });
    await runner.start();
    await vi.waitFor(() => expect(runner.running).toEqual([blocker.id]));
    const affected = await runner.cancel(targetKey(waiting.target), "bob");
    expect(affected).toEqual([expect.objectContaining({ id: waiting.id, state: "cancelled", outcome: "⏹ Cancelled by @bob" })]);
    release.resolve();
    await ended(q, blocker.id);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it("aborts a running job on cancel with a reason the handler can read", async () => {
    const q = queues.open(await tempDataDir());
    const { job } = await q.enqueue(newJob());
    const reasons: unknown[] = [];
    const runner = makeRunner(q, async (_job, ctx) => {
      ctx.signal.addEventListener("abort", () => reasons.push(ctx.signal.reason));
      return untilAborted(ctx.signal);
    });
    await runner.start();
    await vi.waitFor(() => expect(runner.running).toEqual([job.id]));
    const affected = await runner.cancel(targetKey(job.target), "bob");
    expect(affected).toEqual([expect.objectContaining({ id: job.id, state: "running", cancelRequested: true })]);
    expect(await ended(q, job.id)).toMatchObject({ state: "cancelled", outcome: "⏹ Cancelled by @bob" });
    expect(reasons).toEqual([{ kind: "cancelled", by: "bob" } satisfies AbortReason]);
  });

  it("aborts a running job cancelled through another queue (another process) at its next heartbeat", async () => {
    const dir = await tempDataDir();
    const q = queues.open(dir);
    const { job } = await q.enqueue(newJob());
    const runner = makeRunner(q, async (_job, ctx) => {
      await untilAborted(ctx.signal).catch(() => {});
      // A handler may also report the cancel itself.
      return { state: "cancelled", outcome: `⏹ Cancelled (${(ctx.signal.reason as AbortReason).kind})` };
    });
    await runner.start();
    await vi.waitFor(() => expect(runner.running).toEqual([job.id]));
    await queues.open(dir).requestCancel(targetKey(job.target), "carol");
    expect(await ended(q, job.id)).toMatchObject({ state: "cancelled", outcome: "⏹ Cancelled (cancelled)", cancelledBy: "carol" });
  });

  it("records a throwing handler as failed with its message, and tells onInterrupted", async () => {
    const q = queues.open(await tempDataDir());
    const a = (await q.enqueue(newJob({ number: 1 }))).job;
    const b = (await q.enqueue(newJob({ number: 2 }))).job;
    const c = (await q.enqueue(newJob({ number: 3 }))).job;
    const interrupted: JobRecord[] = [];
    const logged = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const runner = makeRunner(
      q,
      ((job: JobRecord) => {
        if (job.id === a.id) throw new Error("clone failed: 403\nstack-ish detail");
        if (job.id === b.id) return Promise.reject("plain string");
        return Promise.resolve(undefined);
      }) as unknown as JobHandler,
      { onInterrupted: (job) => void interrupted.push(job), logger: logged },
    );
    await runner.start();
    expect(await ended(q, a.id)).toMatchObject({ state: "failed", outcome: "❌ Failed: clone failed: 403" });
    expect(await ended(q, b.id)).toMatchObject({ state: "failed", outcome: "❌ Failed: plain string" });
    expect(await ended(q, c.id)).toMatchObject({ state: "failed", outcome: "❌ Failed: the job handler returned no result" });
    await vi.waitFor(() => expect(interrupted.map((j) => j.id).sort()).toEqual([a.id, b.id, c.id].sort()));
    expect(logged.error).toHaveBeenCalledWith(expect.objectContaining({ jobId: a.id }), "job handler threw");
  });

  it("stop({ drain: true }) claims nothing more and waits for running jobs to finish", async () => {
    const q = queues.open(await tempDataDir());
    const { job } = await q.enqueue(newJob({ number: 1 }));
    const release = deferred();
    let aborted = false;
    const runner = makeRunner(q, async (_job, ctx) => {
      await release.promise;
      aborted = ctx.signal.aborted;
      return { state: "succeeded", outcome: "✅ Done" };
    });
    await runner.start();
    await vi.waitFor(() => expect(runner.running).toEqual([job.id]));
    let stopped = false;
    const stopping = runner.stop({ drain: true, timeoutMs: 60_000 }).then(() => (stopped = true));
    const later = (await q.enqueue(newJob({ number: 2 }))).job;
    runner.wake();
    await new Promise((r) => setTimeout(r, 50));
    expect(stopped).toBe(false);
    release.resolve();
    await stopping;
    expect(aborted).toBe(false);
    expect((await q.get(job.id))?.state).toBe("succeeded");
    expect((await q.get(later.id))?.state).toBe("queued");
  });

  it("stop({ drain: false }) aborts running jobs and ends them, even a handler that ignores its signal", async () => {
    const q = queues.open(await tempDataDir());
    const polite = (await q.enqueue(newJob({ number: 1 }))).job;
    const stubborn = (await q.enqueue(newJob({ number: 2 }))).job;
    const reasons: unknown[] = [];
    const interrupted: string[] = [];
    const runner = makeRunner(
      q,
      async (job, ctx) => {
        if (job.id === stubborn.id) return new Promise(() => {}); // never settles
        await untilAborted(ctx.signal).catch(() => reasons.push(ctx.signal.reason));
        throw new Error("aborted");
      },
      { onInterrupted: (job) => void interrupted.push(job.id) },
    );
    await runner.start();
    await vi.waitFor(() => expect(runner.running).toHaveLength(2));
    await runner.stop({ drain: false });
    expect(runner.running).toEqual([]);
    expect(reasons).toEqual([{ kind: "shutdown" }]);
    for (const id of [polite.id, stubborn.id]) {
      expect(await q.get(id)).toMatchObject({ state: "failed", outcome: INTERRUPTED_OUTCOME });
    }
    expect(interrupted.sort()).toEqual([polite.id, stubborn.id].sort());
  });

  it("ends a cancelled job whose handler ignores its abort once the grace is over, and tells onInterrupted", async () => {
    const q = queues.open(await tempDataDir());
    const { job } = await q.enqueue(newJob());
    const interrupted: JobRecord[] = [];
    // Its heartbeats alone would keep it running, and its slot taken, for ever.
    const runner = makeRunner(q, async () => new Promise(() => {}), { maxActive: 1, onInterrupted: (j) => void interrupted.push(j) });
    await runner.start();
    await vi.waitFor(() => expect(runner.running).toEqual([job.id]));
    await runner.cancel(targetKey(job.target), "bob");
    expect(await ended(q, job.id)).toMatchObject({ state: "cancelled", outcome: "⏹ Cancelled by @bob" });
    await vi.waitFor(() => expect(runner.running).toEqual([]));
    expect(interrupted).toEqual([expect.objectContaining({ id: job.id, state: "cancelled" })]);
    // The slot is free again.
    const next = (await q.enqueue(newJob({ number: 2 }))).job;
    runner.wake();
    await vi.waitFor(() => expect(runner.running).toEqual([next.id]));
  });

  it("a superseded job whose handler ignores its abort does not keep its successor waiting", async () => {
    const q = queues.open(await tempDataDir());
    const review = { ...newJob(), group: "review" };
    const first = (await q.enqueue(review)).job;
    const runner = makeRunner(q, async (job) => (job.id === first.id ? new Promise(() => {}) : { state: "succeeded", outcome: "✅ Done" }));
    await runner.start();
    await vi.waitFor(() => expect(runner.running).toEqual([first.id]));
    const second = (await q.enqueue({ ...newJob(), group: "review", supersede: true })).job;
    expect(await ended(q, first.id)).toMatchObject({ state: "cancelled", outcome: `⏹ Superseded by job ${second.id}` });
    runner.wake();
    expect(await ended(q, second.id)).toMatchObject({ state: "succeeded" });
  });

  it("frees the slot of a run whose lease was taken over when its handler ignores the abort", async () => {
    const dir = await tempDataDir();
    const q = queues.open(dir);
    const { job } = await q.enqueue(newJob());
    let calls = 0;
    const runner = makeRunner(q, async () => (++calls === 1 ? new Promise(() => {}) : { state: "succeeded", outcome: "✅ Done (rerun)" }), { maxActive: 1 });
    await runner.start();
    await vi.waitFor(() => expect(runner.running).toEqual([job.id]));
    // Another process took this worker for dead and requeued the job: the stale run must not hold the only slot.
    expect((await queues.open(dir).recoverStale(undefined, { deadWorker: runner.workerId })).requeued).toHaveLength(1);
    runner.wake();
    expect(await ended(q, job.id)).toMatchObject({ state: "succeeded", outcome: "✅ Done (rerun)", attempts: 2 });
  });

  it("a drain that times out aborts what is still running", async () => {
    const q = queues.open(await tempDataDir());
    const { job } = await q.enqueue(newJob());
    const runner = makeRunner(q, async (_job, ctx) => {
      await untilAborted(ctx.signal).catch(() => {});
      return { state: "failed", outcome: "❌ Failed: shutting down" };
    });
    await runner.start();
    await vi.waitFor(() => expect(runner.running).toEqual([job.id]));
    await runner.stop({ drain: true, timeoutMs: 30 });
    expect(await q.get(job.id)).toMatchObject({ state: "failed", outcome: "❌ Failed: shutting down" });
  });

  it("keeps a long job's lease alive with heartbeats, so no recovery takes it", async () => {
    const dir = await tempDataDir();
    const q = queues.open(dir);
    const other = queues.open(dir); // another process looking for dead workers
    const { job } = await q.enqueue(newJob());
    const recoveries: unknown[] = [];
    const runner = makeRunner(
      q,
      async (claimed) => {
        // Run until well past the lease taken at claim time, recovering as a rival would.
        const firstLease = claimed.leaseExpiresAt!;
        while (Date.now() < firstLease + 600) {
          const r = await other.recoverStale();
          if (r.requeued.length || r.interrupted.length) recoveries.push(r);
          await new Promise((res) => setTimeout(res, 20));
        }
        return { state: "succeeded", outcome: "✅ Done" };
      },
      // Short enough that the job outlives its first lease several times over; missing only one heartbeat is harmless.
      { leaseMs: 400, heartbeatMs: 50 },
    );
    await runner.start();
    expect(await ended(q, job.id)).toMatchObject({ state: "succeeded", attempts: 1 });
    expect(recoveries).toEqual([]);
  });

  it("keeps its own jobs through a stall longer than their lease: its own recovery renews them first", async () => {
    const q = queues.open(await tempDataDir());
    const { job } = await q.enqueue(newJob());
    const interrupted: string[] = [];
    const runner = makeRunner(
      q,
      async (_job, ctx) => {
        await ctx.update({ agentsStarted: true });
        // A blocked event loop (or a suspended host): every timer is overdue when it ends, the recovery's
        // (due every 50 ms) before the heartbeat's (350 ms after the claim).
        const until = Date.now() + 700;
        while (Date.now() < until);
        await new Promise((resolve) => setTimeout(resolve, 20)); // the job goes on after it
        return { state: "succeeded", outcome: "✅ Done" };
      },
      { leaseMs: 400, heartbeatMs: 350, recoverEveryMs: 50, onInterrupted: (j) => void interrupted.push(j.id) },
    );
    await runner.start();
    expect(await ended(q, job.id)).toMatchObject({ state: "succeeded", outcome: "✅ Done", attempts: 1 });
    expect(interrupted).toEqual([]);
  });

  it("aborts a run whose lease was taken over, even when this same runner claims the job again", async () => {
    const dir = await tempDataDir();
    const q = queues.open(dir);
    const { job } = await q.enqueue(newJob());
    const reasons: unknown[] = [];
    const rerun = deferred();
    let calls = 0;
    const runner = makeRunner(q, async (_job, ctx) => {
      if (++calls === 1) {
        await untilAborted(ctx.signal).catch(() => reasons.push(ctx.signal.reason));
        return { state: "succeeded", outcome: "✅ Done (stale run)" }; // must not end the rerun
      }
      await rerun.promise;
      return { state: "succeeded", outcome: "✅ Done (rerun)" };
    });
    await runner.start();
    await vi.waitFor(() => expect(runner.running).toEqual([job.id]));
    // Another process took this worker for dead: the job goes back to the queue, and is claimed
    // again here while the stale run is still going.
    expect((await queues.open(dir).recoverStale(undefined, { deadWorker: runner.workerId })).requeued).toHaveLength(1);
    runner.wake();
    await vi.waitFor(() => expect(calls).toBe(2));
    await vi.waitFor(() => expect(reasons).toEqual([{ kind: "lease-lost" }]));
    await vi.waitFor(() => expect(runner.running).toEqual([job.id]));
    expect(await q.get(job.id)).toMatchObject({ state: "running", attempts: 2 });
    rerun.resolve();
    expect(await ended(q, job.id)).toMatchObject({ state: "succeeded", outcome: "✅ Done (rerun)", attempts: 2 });
  });

  it("on start, finalises or reruns the jobs this worker held before a restart", async () => {
    const q = queues.open(await tempDataDir());
    const started = (await q.enqueue(newJob({ number: 1 }))).job;
    const notStarted = (await q.enqueue(newJob({ number: 2 }))).job;
    // The previous process of worker "host-a" claimed both and died; their leases are still long.
    await q.claim("host-a", { perInstallation: 2, global: 4, leaseMs: 3_600_000 });
    await q.claim("host-a", { perInstallation: 2, global: 4, leaseMs: 3_600_000 });
    await q.update(started.id, { agentsStarted: true, progressCommentId: 5 });
    const interrupted: JobRecord[] = [];
    const runner = makeRunner(q, async () => ({ state: "succeeded", outcome: "✅ Done" }), {
      workerId: "host-a",
      onInterrupted: (job) => void interrupted.push(job),
    });
    await runner.start();
    expect(interrupted).toEqual([
      expect.objectContaining({ id: started.id, state: "failed", outcome: INTERRUPTED_OUTCOME, progressCommentId: 5 }),
    ]);
    expect(await ended(q, notStarted.id)).toMatchObject({ state: "succeeded", attempts: 2 });
  });

  it("periodically recovers jobs of a worker that died, and reruns them", async () => {
    const q = queues.open(await tempDataDir());
    const { job } = await q.enqueue(newJob());
    await q.claim("dead", { perInstallation: 2, global: 4, leaseMs: 50 });
    const runner = makeRunner(q, async () => ({ state: "succeeded", outcome: "✅ Done" }), { recoverEveryMs: 20 });
    await runner.start();
    expect(await ended(q, job.id)).toMatchObject({ state: "succeeded", attempts: 2 });
  });

  it("rejects a heartbeat that could not keep a lease alive", async () => {
    const q = queues.open(await tempDataDir());
    expect(() => new JobRunner({ queue: q, handler: vi.fn(), leaseMs: 100, heartbeatMs: 100 })).toThrow(/heartbeatMs/);
  });
});
