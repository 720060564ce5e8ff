/**
 * The scale-out job queue on Redis, shared by any number of worker processes on any machines, each
 * running a JobRunner over its own RedisQueue.
 *
 * - crewbot's record of each job (state, attempts, lease, progress comment, outcome, runAt, group,
 *   supersededBy…) lives in a Redis hash, with sorted-set indexes (see job-scripts.ts). Claims, leases,
 *   cancels, supersedes and recovery are Lua scripts over it, so each is atomic across every process —
 *   two workers never claim the same job, one job runs per target, and the per-installation and global
 *   limits count the running jobs of all workers.
 * - Times come from this process's clock (`now`), as with SqliteQueue: keep workers' clocks in sync.
 */
import { Redis } from "ioredis";
import {
  INTERRUPTED_OUTCOME,
  cancelledOutcome,
  isEndState,
  type ClaimOptions,
  type EndState,
  type HeartbeatResult,
  type Holder,
  type JobPatch,
  type JobQueue,
  type ListOptions,
  type RecoverOptions,
  type StaleRecovery,
} from "../../queue/job-queue.js";
import { dataJson, maybeRecord, records, type FlatHash } from "./job-records.js";
import { transitionArgs } from "../job-transitions.js";
import { SCRIPTS, outcomeTemplates, scriptSource, type ScriptName } from "./job-scripts.js";
import { extraJson, newJobId, validateNewJob } from "../../queue/new-job.js";
import { validateAnswer, validateWait, type JobWait, type WaitAnswer } from "../../queue/wait.js";
import { targetKey, type EnqueueResult, type JobRecord, type JobState, type NewJob } from "../../queue/types.js";

/** Ended jobs one prune script looks at. */
const PRUNE_BATCH = 500;

export const DEFAULT_REDIS_PREFIX = "crewbot";

export interface RedisQueueOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://` for TLS). */
  url: string;
  /** Namespaces every key; queues with the same url and prefix share their jobs. Default `crewbot`. */
  prefix?: string;
  /** The clock, for tests. */
  now?: () => number;
}

type ScriptFn = (...args: string[]) => Promise<unknown>;

export class RedisQueue implements JobQueue {
  readonly prefix: string;
  private readonly redis: Redis;
  private readonly now: () => number;
  /** The arguments every script starts with after the prefix and clock. */
  private readonly common = [...outcomeTemplates(), ...transitionArgs()];
  private closed: Promise<void> | undefined;

  constructor(opts: RedisQueueOptions) {
    if (!opts.url) throw new TypeError("RedisQueue needs a url");
    this.prefix = opts.prefix ?? DEFAULT_REDIS_PREFIX;
    if (!this.prefix || /\s/.test(this.prefix)) throw new TypeError("the Redis key prefix must be a non-empty word");
    this.now = opts.now ?? Date.now;
    this.redis = new Redis(opts.url, { lazyConnect: false });
    // Errors surface on the commands that fail; without a listener ioredis would also print each one.
    this.redis.on("error", () => {});
    for (const name of Object.keys(SCRIPTS) as ScriptName[]) {
      this.redis.defineCommand(name, { numberOfKeys: 0, lua: scriptSource(name) });
    }
  }

  /** A queue whose connection works (it fails if Redis cannot be reached). */
  static async connect(opts: RedisQueueOptions): Promise<RedisQueue> {
    const queue = new RedisQueue(opts);
    try {
      await queue.redis.ping();
    } catch (err) {
      await queue.close();
      // Not the url: it may hold a password.
      throw new Error(`cannot reach the Redis job queue: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    return queue;
  }

  async enqueue(job: NewJob): Promise<EnqueueResult> {
    validateNewJob(job);
    const now = this.now();
    const reply = (await this.script(
      "crewbotEnqueue",
      now,
      newJobId(),
      job.deliveryId,
      job.kind,
      targetKey(job.target),
      String(job.target.installationId),
      String(job.runAt ?? now),
      job.group ?? "",
      job.supersede && job.group !== undefined ? "1" : "0",
      dataJson(job),
      extraJson(job) ?? "",
    )) as [number, FlatHash, FlatHash[], string];
    const [duplicate, stored, superseded, ahead] = reply;
    const result: EnqueueResult = { job: maybeRecord(stored)!, duplicate: duplicate === 1, superseded: records(superseded) };
    if (ahead) result.waitingBehind = ahead;
    return result;
  }

  async claim(workerId: string, opts: ClaimOptions): Promise<JobRecord | undefined> {
    if (!workerId) throw new TypeError("claim needs a worker id");
    for (const k of ["perInstallation", "global", "leaseMs"] as const) {
      if (!Number.isInteger(opts[k]) || opts[k] < 1) throw new RangeError(`${k} must be a positive integer`);
    }
    const reply = await this.script(
      "crewbotClaim",
      this.now(),
      workerId,
      String(opts.leaseMs),
      String(opts.perInstallation),
      String(opts.global),
    );
    return maybeRecord(reply);
  }

  async nextRunAt(): Promise<number | undefined> {
    const [, score] = await this.redis.zrangebyscore(this.key("runat"), `(${this.now()}`, "+inf", "WITHSCORES", "LIMIT", 0, 1);
    return score === undefined ? undefined : Number(score);
  }

  async heartbeat(jobId: string, holder: Holder): Promise<HeartbeatResult> {
    const [held, cancel, by, sup] = (await this.script(
      "crewbotHeartbeat",
      this.now(),
      jobId,
      holder.workerId,
      String(holder.attempt),
    )) as [number, string, string, string];
    if (held !== 1) return { held: false, cancelRequested: false };
    const result: HeartbeatResult = { held: true, cancelRequested: cancel === "1" };
    if (by) result.cancelledBy = by;
    if (sup) result.supersededBy = sup;
    return result;
  }

  async defer(jobId: string, holder: Holder, runAt: number, outcome?: string): Promise<JobRecord | undefined> {
    if (!Number.isSafeInteger(runAt) || runAt < 0) throw new TypeError("runAt must be a time in epoch ms");
    return maybeRecord(
      await this.script("crewbotDefer", this.now(), jobId, holder.workerId, String(holder.attempt), String(runAt), outcome || ""),
    );
  }

  async pause(jobId: string, holder: Holder, wait: JobWait, outcome: string): Promise<JobRecord | undefined> {
    validateWait(wait);
    return maybeRecord(
      await this.script("crewbotPause", this.now(), jobId, holder.workerId, String(holder.attempt), String(wait.expiresAt), outcome, JSON.stringify(wait)),
    );
  }

  async answer(jobId: string, answer: WaitAnswer): Promise<JobRecord | undefined> {
    validateAnswer(answer);
    return maybeRecord(await this.script("crewbotAnswer", this.now(), jobId, JSON.stringify(answer)));
  }

  async update(jobId: string, patch: JobPatch): Promise<JobRecord | undefined> {
    const pc = patch.progressCommentId;
    if (pc !== undefined && !Number.isSafeInteger(pc)) throw new TypeError("progressCommentId must be an integer");
    return maybeRecord(
      await this.script("crewbotUpdate", this.now(), jobId, pc === undefined ? "" : String(pc), patch.agentsStarted ? "1" : "0"),
    );
  }

  async finish(jobId: string, state: EndState, outcome: string, holder?: Holder): Promise<JobRecord | undefined> {
    if (!isEndState(state)) throw new RangeError(`not an end state: ${String(state)}`);
    return maybeRecord(
      await this.script(
        "crewbotFinish",
        this.now(),
        jobId,
        state,
        outcome,
        holder?.workerId ?? "",
        holder ? String(holder.attempt) : "",
      ),
    );
  }

  async get(jobId: string): Promise<JobRecord | undefined> {
    return maybeRecord(await this.redis.hgetall(this.key(`job:${jobId}`)).then(flatten));
  }

  async activeOn(key: string): Promise<JobRecord[]> {
    return records(await this.script("crewbotActive", this.now(), key));
  }

  async requestCancel(key: string, by?: string): Promise<JobRecord[]> {
    return records(await this.script("crewbotCancel", this.now(), key, by ?? "", cancelledOutcome(by)));
  }

  async recoverStale(now = this.now(), opts: RecoverOptions = {}): Promise<StaleRecovery> {
    const [requeued, interrupted] = (await this.script(
      "crewbotRecover",
      now,
      opts.deadWorker ?? "",
      INTERRUPTED_OUTCOME,
    )) as [FlatHash[], FlatHash[]];
    return { requeued: records(requeued), interrupted: records(interrupted) };
  }

  async listRecent(opts: ListOptions = {}): Promise<JobRecord[]> {
    const limit = Math.max(1, Math.min(1000, Math.floor(opts.limit ?? 50)));
    const index =
      opts.targetKey !== undefined ? `target:${opts.targetKey}` : opts.state !== undefined ? `state:${opts.state}` : "all";
    const filter = opts.targetKey !== undefined && opts.state !== undefined ? opts.state : "";
    return records(await this.script("crewbotList", this.now(), index, filter, String(limit)));
  }

  async count(state: JobState): Promise<number> {
    return this.redis.zcard(this.key(`state:${state}`));
  }

  async prune(before: number): Promise<string[]> {
    if (!Number.isFinite(before)) throw new TypeError("prune needs a time in epoch ms");
    const deleted: string[] = [];
    for (const state of ["succeeded", "failed", "cancelled"] as const) {
      // In batches, each one script: other processes' scripts run in between.
      for (let after = "-inf"; ; ) {
        const [ids, last, scanned] = (await this.script("crewbotPrune", this.now(), state, String(before), after, String(PRUNE_BATCH))) as [
          string[],
          string,
          number,
        ];
        deleted.push(...ids);
        if (scanned < PRUNE_BATCH) break;
        after = last;
      }
    }
    return deleted;
  }

  async close(): Promise<void> {
    this.closed ??= this.redis.quit().then(
      () => undefined,
      () => this.redis.disconnect(),
    );
    return this.closed;
  }

  private key(name: string): string {
    return `${this.prefix}:${name}`;
  }

  /** Runs a script with the common arguments: prefix, now, the outcome templates, the state machine. */
  private script(name: ScriptName, now: number, ...args: string[]): Promise<unknown> {
    const fn = (this.redis as unknown as Record<ScriptName, ScriptFn>)[name];
    return fn.call(this.redis, this.prefix, String(now), ...this.common, ...args);
  }
}

/** HGETALL gives an object; the scripts give field/value lists. */
function flatten(h: Record<string, string>): FlatHash {
  return Object.entries(h).flat();
}
