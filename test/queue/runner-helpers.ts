import { expect, vi } from "vitest";
import { JobRunner, type JobHandler, type JobRunnerOptions } from "../../src/queue/runner.js";
import type { SqliteQueue } from "../../src/store/sqlite/job-queue.js";

/** Runners made by a test, stopped after it. */
export class Runners {
  private made: JobRunner[] = [];
  /** Fast timers; the poll is an hour unless a test wants it, so only wake(), a finished job or a runAt timer starts work. */
  make(queue: SqliteQueue, handler: JobHandler, opts: Partial<JobRunnerOptions> = {}): JobRunner {
    const runner = new JobRunner({
      queue,
      handler,
      leaseMs: 1000,
      heartbeatMs: 100,
      pollMs: 3_600_000,
      recoverEveryMs: 3_600_000,
      abortGraceMs: 200,
      ...opts,
    });
    this.made.push(runner);
    return runner;
  }
  async stopAll(): Promise<void> {
    await Promise.all(this.made.splice(0).map((r) => r.stop({ drain: false })));
  }
}

export function deferred<T = void>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Resolves when the signal aborts, rejecting like an aborted fetch would. */
export const untilAborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true }));

export const ended = (q: SqliteQueue, id: string) =>
  vi.waitFor(
    async () => {
      const job = await q.get(id);
      expect(job?.state).toMatch(/succeeded|failed|cancelled/);
      return job!;
    },
    { timeout: 10_000, interval: 10 },
  );
