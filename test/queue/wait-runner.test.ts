import { afterEach, describe, expect, it, vi } from "vitest";
import type { JobHandler } from "../../src/queue/runner.js";
import type { JobRecord } from "../../src/queue/types.js";
import { Queues, newJob, tempDataDir } from "./helpers.js";
import { Runners, ended } from "./runner-helpers.js";

const queues = new Queues();
const runners = new Runners();
afterEach(async () => {
  await runners.stopAll();
  await queues.closeAll();
});

const asking = (expiresAt: number) => ({
  state: "waiting" as const,
  outcome: "⏳ Waiting for @alice",
  wait: { question: "Which?", options: ["a", "b"], asker: "alice", askedAt: Date.now(), expiresAt, resume: { at: "planner" } },
});

describe("JobRunner: a handler that asks a question", () => {
  it("frees the job's slot while it waits, and runs it again with the answer when answered", async () => {
    const q = queues.open(await tempDataDir());
    const seen: JobRecord[] = [];
    const handler: JobHandler = async (job) => {
      seen.push(job);
      if (job.kind === "review") return { state: "succeeded", outcome: "✅ Done" };
      return job.wait?.answer ? { state: "succeeded", outcome: `✅ Done with ${job.wait.answer.text}` } : asking(Date.now() + 3_600_000);
    };
    const runner = runners.make(q, handler, { limits: { perInstallation: 1, global: 1 } });
    const { job } = await q.enqueue(newJob());
    await runner.start();
    await vi.waitFor(async () => expect(await q.get(job.id)).toMatchObject({ state: "queued", outcome: "⏳ Waiting for @alice" }));
    expect(runner.running).toEqual([]);
    // Global and per-installation limit 1: another job runs while the first waits.
    const other = await q.enqueue({ ...newJob(), deliveryId: "d2", kind: "review" });
    runner.wake();
    expect(await ended(q, other.job.id)).toMatchObject({ state: "succeeded" });

    expect(await runner.answer(job.id, { by: "alice", text: "b", option: 2, at: Date.now() })).toBeDefined();
    expect(await runner.answer(job.id, { by: "alice", text: "a", option: 1, at: Date.now() })).toBeUndefined();
    expect(await ended(q, job.id)).toMatchObject({ state: "succeeded", outcome: "✅ Done with b" });
    expect(seen.filter((j) => j.id === job.id).map((j) => j.wait?.answer?.text)).toEqual([undefined, "b"]);
  });

  it("claims an unanswered job again when its wait expires, for its handler to end", async () => {
    const q = queues.open(await tempDataDir());
    let calls = 0;
    const handler: JobHandler = async (job) => {
      calls += 1;
      if (!job.wait) return asking(Date.now() + 50);
      return { state: "failed", outcome: job.wait.answer ? "answered?" : "⏸ Stopped: no answer" };
    };
    const runner = runners.make(q, handler);
    const { job } = await q.enqueue(newJob());
    await runner.start();
    expect(await ended(q, job.id)).toMatchObject({ state: "failed", outcome: "⏸ Stopped: no answer" });
    expect(calls).toBe(2);
  });

  it("ends a waiting job that was cancelled while it ran instead of pausing it", async () => {
    const q = queues.open(await tempDataDir());
    const interrupted: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const runner = runners.make(q, async () => {
      await gate;
      return asking(Date.now() + 3_600_000);
    }, { onInterrupted: (j) => void interrupted.push(j.outcome ?? "") });
    const { job } = await q.enqueue(newJob());
    await runner.start();
    await vi.waitFor(() => expect(runner.running).toEqual([job.id]));
    await q.requestCancel(`${job.target.owner}/${job.target.repo}#${job.target.number}`.toLowerCase(), "bob");
    release();
    expect(await ended(q, job.id)).toMatchObject({ state: "cancelled", outcome: "⏹ Cancelled by @bob" });
    expect(interrupted).toEqual(["⏹ Cancelled by @bob"]);
  });
});
