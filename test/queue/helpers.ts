import { mkdtemp, realpath } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { RedisQueue } from "../../src/store/redis/job-queue.js";
import { SqliteQueue } from "../../src/store/sqlite/job-queue.js";
import type { JobTarget, NewJob } from "../../src/queue/types.js";

export async function tempDataDir(): Promise<string> {
  return realpath(await mkdtemp(path.join(os.tmpdir(), "crewbot-queue-")));
}

let delivery = 0;

/** A job on `owner/repo#number` of installation `inst`; every call is a new delivery unless given one. */
export function newJob(opts: { number?: number; inst?: number; repo?: string; deliveryId?: string } = {}): NewJob {
  const inst = opts.inst ?? 1;
  const target: JobTarget = {
    installationId: inst,
    owner: "Octo",
    // One repository per installation: the target key is owner/repo#number.
    repo: opts.repo ?? (inst === 1 ? "Hello" : `Hello${inst}`),
    number: opts.number ?? 1,
    isPullRequest: false,
  };
  return {
    deliveryId: opts.deliveryId ?? `delivery-${process.pid}-${++delivery}`,
    kind: "plan",
    target,
    trigger: { sender: "alice", request: "do it", commentId: 7, commentKind: "issue_comment" },
    repo: { cloneUrl: "https://github.com/Octo/Hello.git", defaultBranch: "main", private: true },
  };
}

/**
 * Which queue the shared queue tests run on: SQLite unless a test file calls `useRedis` before it imports
 * them (the redis-contract-*.test.ts files do), so one set of tests covers the JobQueue contract of both.
 */
let redisUrl: string | undefined;

export function useRedis(url: string): void {
  redisUrl = url;
}

export const queueKind = (): "sqlite" | "redis" => (redisUrl === undefined ? "sqlite" : "redis");

/** On Redis, a data directory stands for a key prefix of its own: queues opened on one dir share their jobs. */
export const redisPrefixFor = (dataDir: string): string => `crewbot-test:${path.basename(dataDir)}`;

/**
 * A RedisQueue whose `get` lets what else settled in the same tick run first. A networked store can
 * answer the runner's `finish` and a test's polling `get` in one read; the shared tests expect the
 * runner's bookkeeping after an end (e.g. onInterrupted) to have run by the time a poll sees the end,
 * as it always has with SQLite.
 */
class TestRedisQueue extends RedisQueue {
  override async get(jobId: string) {
    const job = await super.get(jobId);
    await new Promise((r) => setImmediate(r));
    return job;
  }
}

/** Queues opened by a test, closed after it. */
export class Queues {
  private opened: SqliteQueue[] = [];
  /**
   * A queue on `dataDir`. Under `useRedis` it is a RedisQueue on that dir's prefix, typed as SqliteQueue so
   * the shared tests compile unchanged: they only use the JobQueue methods.
   */
  open(dataDir: string, now?: () => number): SqliteQueue {
    const q =
      redisUrl === undefined
        ? new SqliteQueue(now ? { dataDir, now } : { dataDir })
        : (new TestRedisQueue({ url: redisUrl, prefix: redisPrefixFor(dataDir), ...(now ? { now } : {}) }) as unknown as SqliteQueue);
    this.opened.push(q);
    return q;
  }
  async closeAll(): Promise<void> {
    await Promise.all(this.opened.map((q) => q.close()));
    this.opened = [];
  }
}

export const LIMITS = { perInstallation: 2, global: 4, leaseMs: 60_000 };
