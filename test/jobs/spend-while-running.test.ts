/**
 * A running job's spend reaches the ledger while it runs, not only at its end: jobs starting
 * meanwhile on any process count it against the monthly caps.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SPEND_FLUSH_MS, spendWhileRunning } from "../../src/jobs/spend-check.js";
import type { JobRecord } from "../../src/queue/types.js";

const job = { id: "job-1", target: { installationId: 7, owner: "o", repo: "r", number: 1, isPullRequest: false } } as JobRecord;

describe("spendWhileRunning", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("writes the spend so far every interval while it grew, and nothing after stop", async () => {
    const writes: Array<[number, string, number, string | undefined]> = [];
    const usage = { recordCost: async (...args: [number, string, number, string | undefined]) => void writes.push(args) };
    let spent = 0;
    const running = spendWhileRunning(usage, job, "o/r", () => spent);
    await vi.advanceTimersByTimeAsync(SPEND_FLUSH_MS);
    expect(writes).toEqual([]); // nothing spent yet
    spent = 0.25;
    await vi.advanceTimersByTimeAsync(SPEND_FLUSH_MS);
    spent = 0.5;
    await vi.advanceTimersByTimeAsync(SPEND_FLUSH_MS);
    await vi.advanceTimersByTimeAsync(SPEND_FLUSH_MS); // unchanged: not written again
    expect(writes).toEqual([
      [7, "job-1", 0.25, "o/r"],
      [7, "job-1", 0.5, "o/r"],
    ]);
    await running.stop();
    spent = 0.75;
    await vi.advanceTimersByTimeAsync(3 * SPEND_FLUSH_MS);
    expect(writes).toHaveLength(2);
  });

  it("stop waits for the write under way, so the job's final figure written after it is the one kept", async () => {
    const order: string[] = [];
    let release!: () => void;
    const usage = {
      recordCost: (_i: number, _j: string, usd: number) =>
        new Promise<void>((resolve) => {
          order.push(`write ${usd}`);
          release = () => (order.push(`written ${usd}`), resolve());
        }),
    };
    const running = spendWhileRunning(usage, job, undefined, () => 1);
    await vi.advanceTimersByTimeAsync(SPEND_FLUSH_MS);
    const stopped = running.stop().then(() => order.push("stopped"));
    await Promise.resolve();
    expect(order).toEqual(["write 1"]);
    release();
    await stopped;
    expect(order).toEqual(["write 1", "written 1", "stopped"]);
  });

  it("a failed write is not the job's failure", async () => {
    const usage = { recordCost: async () => Promise.reject(new Error("redis down")) };
    const running = spendWhileRunning(usage, job, undefined, () => 1);
    await vi.advanceTimersByTimeAsync(SPEND_FLUSH_MS);
    await expect(running.stop()).resolves.toBeUndefined();
  });
});
