/**
 * The job queue contract: the embedded SQLite queue and the Redis queue implement it (store/).
 * Every method may be asynchronous so a networked store fits; all state changes are atomic.
 */
import type { EnqueueResult, JobRecord, JobState, NewJob } from "./types.js";
import type { JobWait, WaitAnswer } from "./wait.js";

/** How many jobs may run at once, counted over every worker sharing the store. */
export interface ClaimLimits {
  perInstallation: number;
  global: number;
}

export interface ClaimOptions extends ClaimLimits {
  /** How long the claim holds without a heartbeat; a lease that runs out means the worker died. */
  leaseMs: number;
}

export const DEFAULT_LIMITS: ClaimLimits = { perInstallation: 2, global: 4 };
export const DEFAULT_LEASE_MS = 60_000;

/** What a running job may record about itself. */
export interface JobPatch {
  progressCommentId?: number;
  agentsStarted?: boolean;
}

export type EndState = Extract<JobState, "succeeded" | "failed" | "cancelled">;

/** Who holds a running job: the worker and which claim of it (a worker may claim a requeued job again). */
export interface Holder {
  workerId: string;
  attempt: number;
}

export interface HeartbeatResult {
  /** False when the job is no longer running under this worker (ended, or taken over): stop work. */
  held: boolean;
  /** `/crewbot cancel` was asked for; the runner aborts the job. */
  cancelRequested: boolean;
  cancelledBy?: string;
  /** A later job of the same target and group superseded this one (its id); the runner aborts the job. */
  supersededBy?: string;
}

export interface StaleRecovery {
  /** Back in the queue: interrupted before its agents started, and claimed fewer than 2 times. */
  requeued: JobRecord[];
  /** Ended now (`❌ Failed: interrupted`, or `⏹ Cancelled` if a cancel was pending): finalise their comments. */
  interrupted: JobRecord[];
}

export interface RecoverOptions {
  /** Treat this worker's running jobs as dead whatever their lease says: it restarted and holds nothing. */
  deadWorker?: string;
}

export interface ListOptions {
  limit?: number;
  targetKey?: string;
  state?: JobState;
}

export const INTERRUPTED_OUTCOME = "❌ Failed: interrupted";
export const cancelledOutcome = (by?: string) => (by ? `⏹ Cancelled by @${by}` : "⏹ Cancelled");

export const supersededOutcome = (byJobId: string) => `⏹ Superseded by job ${byJobId}`;

export const isEndState = (s: string): s is EndState => s === "succeeded" || s === "failed" || s === "cancelled";

export interface JobQueue {
  /** Stores a queued job; a delivery id seen before returns its job with `duplicate: true` and stores nothing. */
  enqueue(job: NewJob): Promise<EnqueueResult>;
  /**
   * Atomically takes the oldest claimable job, leased: its `runAt` has come, it is first among the due
   * jobs in its target's line, nothing runs on its target, and the limits allow it.
   */
  claim(workerId: string, opts: ClaimOptions): Promise<JobRecord | undefined>;
  /** The earliest `runAt` still to come among queued jobs (epoch ms), or undefined: when to try claiming again. */
  nextRunAt(): Promise<number | undefined>;
  /** Extends the holder's lease; says whether it still holds the job and whether a cancel or supersede is pending. */
  heartbeat(jobId: string, holder: Holder): Promise<HeartbeatResult>;
  /**
   * Puts a running job back to wait until `runAt` (only while `holder` holds it): queued, lease cleared,
   * `attempts` one less (a deferral is no failed attempt), `startedAt` cleared, `outcome` set to the given
   * line (or cleared). A job with a pending cancel or supersede ends `cancelled` instead. Returns the job
   * as it now is; undefined when the holder no longer holds it.
   */
  defer(jobId: string, holder: Holder, runAt: number, outcome?: string): Promise<JobRecord | undefined>;
  /**
   * Puts a running job to wait for its requester's answer (only while `holder` holds it): as `defer`
   * with `runAt` at the wait's expiry, the wait stored with the job (a previous answer cleared). A
   * pending cancel or supersede ends it `cancelled` instead.
   */
  pause(jobId: string, holder: Holder, wait: JobWait, outcome: string): Promise<JobRecord | undefined>;
  /**
   * Records the answer of a waiting job and makes it due now, once: undefined when the job is not
   * waiting (ended, running, no wait) or already has an answer, so a second answer resumes nothing.
   */
  answer(jobId: string, answer: WaitAnswer): Promise<JobRecord | undefined>;
  /** Records progress facts on a job in any state; undefined when there is no such job. */
  update(jobId: string, patch: JobPatch): Promise<JobRecord | undefined>;
  /** Ends a job that has not ended (with a holder: only while that claim holds it); undefined when nothing changed. */
  finish(jobId: string, state: EndState, outcome: string, holder?: Holder): Promise<JobRecord | undefined>;
  /** The job with this id, in any state. */
  get(jobId: string): Promise<JobRecord | undefined>;
  /** The running and queued jobs of a target (see `targetKey`), in the order they run. */
  activeOn(targetKey: string): Promise<JobRecord[]>;
  /** Cancels the queued jobs of a target (every group) at once and flags its running job; returns the jobs as they now are. */
  requestCancel(targetKey: string, by?: string): Promise<JobRecord[]>;
  /**
   * Running jobs whose lease ran out by `now` (worker died): requeued once if agents had not started, else
   * ended (`cancelled` when a cancel or supersede was pending).
   */
  recoverStale(now?: number, opts?: RecoverOptions): Promise<StaleRecovery>;
  /** Jobs newest first, optionally of one target or state. */
  listRecent(opts?: ListOptions): Promise<JobRecord[]>;
  /** How many jobs are in a state, however many (the queue-depth gauges). */
  count(state: JobState): Promise<number>;
  /**
   * Deletes the jobs that ended before `before` (epoch ms), with their delivery ids (a redelivery
   * that old is a new delivery); returns their ids. Queued and running jobs are never touched.
   */
  prune(before: number): Promise<string[]>;
  /** Releases the store; the queue is unusable afterwards. */
  close(): Promise<void>;
}
