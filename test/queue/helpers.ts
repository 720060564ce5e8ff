import { mkdtemp, realpath } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { SqliteQueue } from "../../src/queue/sqlite-queue.js";
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

/** Queues opened by a test, closed after it. */
export class Queues {
  private opened: SqliteQueue[] = [];
  open(dataDir: string, now?: () => number): SqliteQueue {
    const q = new SqliteQueue(now ? { dataDir, now } : { dataDir });
    this.opened.push(q);
    return q;
  }
  async closeAll(): Promise<void> {
    await Promise.all(this.opened.map((q) => q.close()));
    this.opened = [];
  }
}

export const LIMITS = { perInstallation: 2, global: 4, leaseMs: 60_000 };
