import { afterEach, describe, expect, it, vi } from "vitest";
import type { AbortReason } from "../../src/queue/runner.js";
import { targetKey, type NewJob } from "../../src/queue/types.js";
import { LIMITS, Queues, newJob, tempDataDir } from "./helpers.js";
import { Runners, ended, untilAborted } from "./runner-helpers.js";

const queues = new Queues();
const runners = new Runners();
afterEach(async () => {
  await runners.stopAll();
  await queues.closeAll();
});

/** A review-group job on `number`; `supersede` makes it replace the target's earlier ones. */
const reviewJob = (opts: Parameters<typeof newJob>[0] & { supersede?: boolean; group?: string } = {}): NewJob => ({
  ...newJob(opts),
  kind: "review",
  group: opts.group ?? "review",
  ...(opts.supersede ? { supersede: true } : {}),
});

describe("SqliteQueue: supersede", () => {
  it("cancels queued jobs and flags running ones of the same target and group, in the enqueue", async () => {
    const q = queues.open(await tempDataDir());
    const running = (await q.enqueue(reviewJob({ number: 1 }))).job;
    await q.claim("w", LIMITS);
    const queued = (await q.enqueue(reviewJob({ number: 1 }))).job;
    const otherGroup = (await q.enqueue(reviewJob({ number: 1, group: "plan" }))).job;
    const ungrouped = (await q.enqueue(newJob({ number: 1 }))).job;
    const otherTarget = (await q.enqueue(reviewJob({ number: 2 }))).job;

    const result = await q.enqueue(reviewJob({ number: 1, supersede: true }));
    const by = result.job.id;
    expect(result.job).toMatchObject({ state: "queued", group: "review", supersede: true });
    expect(result.superseded.map((j) => [j.id, j.state, j.supersededBy, j.outcome])).toEqual([
      [running.id, "running", by, undefined],
      [queued.id, "cancelled", undefined, `⏹ Superseded by job ${by}`],
    ]);
    expect(await q.get(queued.id)).toMatchObject({ state: "cancelled", outcome: `⏹ Superseded by job ${by}` });
    expect((await q.get(running.id))?.supersededBy).toBe(by);
    // It waits behind the running job it superseded.
    expect(result.waitingBehind).toBe(running.id);
    for (const id of [otherGroup.id, ungrouped.id, otherTarget.id]) expect((await q.get(id))?.state).toBe("queued");
    // The runner of the flagged job learns it at its heartbeat.
    expect(await q.heartbeat(running.id, { workerId: "w", attempt: 1 })).toEqual({
      held: true,
      cancelRequested: false,
      supersededBy: by,
    });
  });

  it("supersedes a job waiting for its runAt", async () => {
    const q = queues.open(await tempDataDir());
    const waiting = (await q.enqueue({ ...reviewJob(), runAt: Date.now() + 3_600_000 })).job;
    const { job, superseded } = await q.enqueue(reviewJob({ supersede: true }));
    expect(superseded).toEqual([expect.objectContaining({ id: waiting.id, state: "cancelled" })]);
    expect(await q.nextRunAt()).toBeUndefined();
    expect((await q.claim("w", LIMITS))?.id).toBe(job.id);
  });

  it("a duplicate delivery supersedes nothing", async () => {
    const q = queues.open(await tempDataDir());
    const first = await q.enqueue(reviewJob({ deliveryId: "d-1", supersede: true }));
    const later = (await q.enqueue(reviewJob())).job;
    const again = await q.enqueue(reviewJob({ deliveryId: "d-1", supersede: true }));
    expect(again).toMatchObject({ duplicate: true, superseded: [] });
    expect(again.job.id).toBe(first.job.id);
    expect((await q.get(later.id))?.state).toBe("queued");
  });

  it("without supersede, a job of the group cancels nothing; requestCancel still cancels every group", async () => {
    const q = queues.open(await tempDataDir());
    const a = (await q.enqueue(reviewJob())).job;
    const b = await q.enqueue(reviewJob());
    expect(b.superseded).toEqual([]);
    const c = (await q.enqueue(reviewJob({ group: "other" }))).job;
    const cancelled = await q.requestCancel(targetKey(a.target), "bob");
    expect(cancelled.map((j) => [j.id, j.state])).toEqual([
      [a.id, "cancelled"],
      [b.job.id, "cancelled"],
      [c.id, "cancelled"],
    ]);
  });

  it("rejects supersede without a group, and a group that is not a name", async () => {
    const q = queues.open(await tempDataDir());
    await expect(q.enqueue({ ...newJob(), supersede: true })).rejects.toThrow(/supersede needs a group/);
    await expect(q.enqueue({ ...newJob(), group: "" })).rejects.toThrow(/group/);
    await expect(q.enqueue({ ...newJob(), group: "g", supersede: "yes" as never })).rejects.toThrow(/supersede/);
  });

  it("ends a superseded running job whose worker died as superseded, not requeued", async () => {
    const q = queues.open(await tempDataDir());
    const old = (await q.enqueue(reviewJob())).job;
    await q.claim("dead", LIMITS);
    const { job } = await q.enqueue(reviewJob({ supersede: true }));
    const { requeued, interrupted } = await q.recoverStale(undefined, { deadWorker: "dead" });
    expect(requeued).toEqual([]);
    expect(interrupted).toEqual([
      expect.objectContaining({ id: old.id, state: "cancelled", outcome: `⏹ Superseded by job ${job.id}` }),
    ]);
  });
});

describe("JobRunner: supersede", () => {
  it("aborts a superseded running job with the new job's id, ends it cancelled, then runs the new one", async () => {
    const q = queues.open(await tempDataDir());
    const old = (await q.enqueue(reviewJob())).job;
    const reasons: unknown[] = [];
    const ran: string[] = [];
    const interrupted: string[] = [];
    const runner = runners.make(
      q,
      async (job, ctx) => {
        ran.push(job.id);
        if (job.id !== old.id) return { state: "succeeded", outcome: "✅ Done" };
        ctx.signal.addEventListener("abort", () => reasons.push(ctx.signal.reason));
        return untilAborted(ctx.signal);
      },
      { onInterrupted: (job) => void interrupted.push(job.id) },
    );
    await runner.start();
    await vi.waitFor(() => expect(runner.running).toEqual([old.id]));
    const other = (await q.enqueue(reviewJob({ number: 2, supersede: true }))).job; // another target: untouched
    const { job } = await q.enqueue(reviewJob({ supersede: true }));
    runner.wake();
    expect(await ended(q, old.id)).toMatchObject({ state: "cancelled", outcome: `⏹ Superseded by job ${job.id}` });
    expect(reasons).toEqual([{ kind: "superseded", by: job.id } satisfies AbortReason]);
    expect(interrupted).toEqual([old.id]);
    expect(await ended(q, job.id)).toMatchObject({ state: "succeeded" });
    expect(await ended(q, other.id)).toMatchObject({ state: "succeeded" });
    expect(ran.sort()).toEqual([old.id, job.id, other.id].sort());
  });

  it("keeps the handler's own result when it returns one after a supersede", async () => {
    const q = queues.open(await tempDataDir());
    const old = (await q.enqueue(reviewJob())).job;
    const runner = runners.make(q, async (job, ctx) => {
      if (job.id !== old.id) return { state: "succeeded", outcome: "✅ Done" };
      await untilAborted(ctx.signal).catch(() => {});
      const reason = ctx.signal.reason as AbortReason;
      return { state: "cancelled", outcome: `⏹ Replaced (${reason.kind === "superseded" ? reason.by : "?"})` };
    });
    await runner.start();
    await vi.waitFor(() => expect(runner.running).toEqual([old.id]));
    const { job } = await q.enqueue(reviewJob({ supersede: true }));
    expect(await ended(q, old.id)).toMatchObject({ state: "cancelled", outcome: `⏹ Replaced (${job.id})` });
  });
});
