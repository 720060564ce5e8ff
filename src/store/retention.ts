/**
 * What crewbot keeps, and for how long (`CREWBOT_RETENTION_DAYS`, default 30): one sweep at start
 * and then hourly, in the app and in every worker, deletes ended jobs with their delivery ids,
 * review records, usage rows no limit needs any more, transcripts, job directories (artifacts) and
 * mirrors unused for that long, and logs how many of each. Every store prunes idempotently, so
 * several processes sweeping the same stores do no harm.
 */
import { lstat, readdir, rm } from "node:fs/promises";
import path from "node:path";
import type { JobQueue } from "../queue/job-queue.js";
import type { ReviewStore } from "../review/review-store.js";

export const DAY_MS = 86_400_000;
export const SWEEP_EVERY_MS = 60 * 60_000;

/** One kind of thing kept: deletes what is older than `before` (epoch ms), returns how many. */
export interface RetentionTarget {
  /** Plural, as the log line says it: "ended jobs", "mirrors". */
  name: string;
  prune(before: number, now: number): Promise<number>;
}

export interface RetentionLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface RetentionOptions {
  days: number;
  targets: RetentionTarget[];
  log: RetentionLog;
  /** Default hourly. */
  everyMs?: number;
  now?: () => number;
}

export interface Retention {
  /** One sweep now (a sweep already running is joined); what each target deleted. */
  sweep(): Promise<Record<string, number>>;
  /** No more sweeps; waits for one in progress (so stores are not closed under it). */
  stop(): Promise<void>;
}

/** Starts sweeping: once now, then every `everyMs`. Timers never keep the process alive. */
export function startRetention(options: RetentionOptions): Retention {
  const now = options.now ?? Date.now;
  let running: Promise<Record<string, number>> | undefined;
  let stopped = false;
  const sweepOnce = async (): Promise<Record<string, number>> => {
    const at = now();
    const before = at - options.days * DAY_MS;
    const counts: Record<string, number> = {};
    for (const target of options.targets) {
      if (stopped) break;
      try {
        counts[target.name] = await target.prune(before, at);
      } catch (err) {
        options.log.warn(`retention: pruning ${target.name} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    options.log.info(`retention (${options.days} days): ${describeCounts(counts)}`);
    return counts;
  };
  const sweep = () => (running ??= sweepOnce().finally(() => (running = undefined)));
  const quietly = () => void sweep().catch(() => undefined);
  quietly();
  const timer = setInterval(quietly, options.everyMs ?? SWEEP_EVERY_MS);
  timer.unref();
  return {
    sweep,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}

/** `deleted 3 ended jobs, 0 review records, …` */
export function describeCounts(counts: Record<string, number>): string {
  const parts = Object.entries(counts).map(([name, n]) => `${n} ${name}`);
  return parts.length > 0 ? `deleted ${parts.join(", ")}` : "nothing to delete";
}

const SAFE_ID = /^[A-Za-z0-9._-]+$/;

/** `<dataDir>/jobs/<id>`, or undefined for an id that is no plain directory name. */
function jobDir(dataDir: string, id: string): string | undefined {
  return SAFE_ID.test(id) && id !== "." && id !== ".." ? path.join(dataDir, "jobs", id) : undefined;
}

/** Ended jobs (and their delivery ids) from the queue, and their job directories with them. */
export function jobsTarget(queue: Pick<JobQueue, "prune">, dataDir: string): RetentionTarget {
  return {
    name: "ended jobs",
    async prune(before) {
      const ids = await queue.prune(before);
      for (const id of ids) {
        const dir = jobDir(dataDir, id);
        if (dir) await rm(dir, { recursive: true, force: true });
      }
      return ids.length;
    },
  };
}

export function reviewsTarget(reviews: Pick<ReviewStore, "prune">): RetentionTarget {
  return { name: "review records", prune: (before) => reviews.prune(before) };
}

/**
 * Job directories (artifacts) nothing was written to since `before`, whatever store their job was
 * in (a Redis transcript expires by itself, and its artifacts are found here); a directory of a job
 * the queue still has queued or running is kept.
 */
export function jobDirsTarget(dataDir: string, isActive: (jobId: string) => Promise<boolean>): RetentionTarget {
  return {
    name: "job directories",
    async prune(before) {
      let removed = 0;
      for (const id of await readdir(path.join(dataDir, "jobs")).catch(() => [] as string[])) {
        const dir = jobDir(dataDir, id);
        if (!dir) continue;
        const info = await lstat(dir).catch(() => undefined);
        if (!info?.isDirectory() || (await lastWrite(dir, info.mtimeMs)) >= before) continue;
        if (await isActive(id)) continue;
        await rm(dir, { recursive: true, force: true });
        removed += 1;
      }
      return removed;
    },
  };
}

/** The newest mtime of a job directory and its direct subdirectories (artifacts, scratch, work). */
async function lastWrite(dir: string, own: number): Promise<number> {
  let newest = own;
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (!entry.isDirectory()) continue;
    const info = await lstat(path.join(dir, entry.name)).catch(() => undefined);
    if (info) newest = Math.max(newest, info.mtimeMs);
  }
  return newest;
}

/** The queue's answer to "is this job still queued or running?" for `jobDirsTarget`. */
export const activeIn =
  (queue: Pick<JobQueue, "get">) =>
  async (jobId: string): Promise<boolean> => {
    const job = await queue.get(jobId);
    return job !== undefined && (job.state === "queued" || job.state === "running");
  };
