import { afterEach, describe, expect, it, vi } from "vitest";
import { targetKey } from "../../src/queue/types.js";
import { LIMITS, Queues, newJob, tempDataDir } from "./helpers.js";
import { Runners, ended } from "./runner-helpers.js";

const queues = new Queues();
const runners = new Runners();
afterEach(async () => {
  await runners.stopAll();
  await queues.closeAll();
});

describe("SqliteQueue: runAt", () => {
  it("does not claim a job before its runAt, and keeps runAt readable", async () => {
    let now = 1_000;
    const q = queues.open(await tempDataDir(), () => now);
    const { job } = await q.enqueue({ ...newJob(), runAt: 5_000 });
    const plain = (await q.enqueue(newJob({ number: 2 }))).job;
    expect(job.runAt).toBe(5_000);
    expect(plain.runAt).toBe(1_000); // not given: due when enqueued
    expect((await q.get(job.id))?.runAt).toBe(5_000);
    expect((await q.claim("w", LIMITS))?.id).toBe(plain.id);
    expect(await q.claim("w", LIMITS)).toBeUndefined();
    now = 4_999;
    expect(await q.claim("w", LIMITS)).toBeUndefined();
    now = 5_000;
    expect(await q.claim("w", LIMITS)).toMatchObject({ id: job.id, state: "running", startedAt: 5_000 });
  });

  it("a job waiting for its runAt does not hold up later jobs on its target, and is still listed", async () => {
    let now = 1_000;
    const q = queues.open(await tempDataDir(), () => now);
    const waiting = (await q.enqueue({ ...newJob({ number: 1 }), runAt: 10_000 })).job;
    const due1 = await q.enqueue(newJob({ number: 1 }));
    const due2 = (await q.enqueue(newJob({ number: 1 }))).job;
    // A job due now does not wait behind one that waits for its time.
    expect(due1.waitingBehind).toBeUndefined();
    expect((await q.activeOn(targetKey(waiting.target))).map((j) => j.id)).toEqual([waiting.id, due1.job.id, due2.id]);

    // Among due jobs the target's line still holds: due1 before due2, one at a time.
    expect((await q.claim("w", LIMITS))?.id).toBe(due1.job.id);
    expect(await q.claim("w", LIMITS)).toBeUndefined();
    await q.finish(due1.job.id, "succeeded", "✅ Done");
    now = 10_000; // both are due now: the older one goes first
    expect((await q.claim("w", LIMITS))?.id).toBe(waiting.id);
    expect(await q.claim("w", LIMITS)).toBeUndefined(); // the target is busy again
    await q.finish(waiting.id, "succeeded", "✅ Done");
    expect((await q.claim("w", LIMITS))?.id).toBe(due2.id);
  });

  it("takes the oldest due job across targets", async () => {
    let now = 1_000;
    const q = queues.open(await tempDataDir(), () => now);
    const later = (await q.enqueue({ ...newJob({ number: 1 }), runAt: 3_000 })).job;
    const soon = (await q.enqueue({ ...newJob({ number: 2 }), runAt: 2_000 })).job;
    now = 5_000;
    expect((await q.claim("w", LIMITS))?.id).toBe(later.id);
    expect((await q.claim("w", LIMITS))?.id).toBe(soon.id);
  });

  it("nextRunAt is the earliest runAt still to come among queued jobs", async () => {
    let now = 1_000;
    const q = queues.open(await tempDataDir(), () => now);
    expect(await q.nextRunAt()).toBeUndefined();
    await q.enqueue(newJob({ number: 1 })); // due now: nothing to wait for
    expect(await q.nextRunAt()).toBeUndefined();
    const b = (await q.enqueue({ ...newJob({ number: 2 }), runAt: 9_000 })).job;
    await q.enqueue({ ...newJob({ number: 3 }), runAt: 4_000 });
    expect(await q.nextRunAt()).toBe(4_000);
    now = 4_000;
    expect(await q.nextRunAt()).toBe(9_000);
    await q.requestCancel(targetKey(b.target));
    expect(await q.nextRunAt()).toBeUndefined();
  });

  it("rejects a runAt that is not a time", async () => {
    const q = queues.open(await tempDataDir());
    for (const runAt of [-1, 1.5, Number.NaN, "soon"]) {
      await expect(q.enqueue({ ...newJob(), runAt: runAt as number })).rejects.toThrow(/runAt/);
    }
  });
});

describe("JobRunner: runAt", () => {
  it("starts a job when its runAt comes, without waiting for the poll", async () => {
    const q = queues.open(await tempDataDir());
    const started: number[] = [];
    const runner = runners.make(q, async () => {
      started.push(Date.now());
      return { state: "succeeded", outcome: "✅ Done" };
    }); // pollMs is an hour
    await runner.start();
    const runAt = Date.now() + 150;
    const { job } = await q.enqueue({ ...newJob(), runAt });
    runner.wake(); // finds nothing due, and sets its timer
    await vi.waitFor(async () => expect((await q.get(job.id))?.state).not.toBe("queued"), { timeout: 5_000, interval: 10 });
    expect(await ended(q, job.id)).toMatchObject({ state: "succeeded" });
    expect(started).toHaveLength(1);
    expect(started[0]).toBeGreaterThanOrEqual(runAt);
  });

  it("sets one timer for the earliest waiting job, and clears it on stop", async () => {
    const q = queues.open(await tempDataDir());
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }); // the poll and recovery intervals stay real
    try {
      const runner = runners.make(q, vi.fn());
      await runner.start();
      expect(vi.getTimerCount()).toBe(0); // nothing waits
      await q.enqueue({ ...newJob({ number: 1 }), runAt: Date.now() + 3_600_000 });
      await q.enqueue({ ...newJob({ number: 2 }), runAt: Date.now() + 7_200_000 });
      runner.wake();
      await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1));
      runner.wake(); // re-armed, not added
      await new Promise((r) => setImmediate(r));
      await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1));
      await runner.stop();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
