/** The job runner's types: what a handler gets and returns, and how a runner is set up. */
import { isEndState, type ClaimLimits, type EndState, type JobPatch, type JobQueue } from "./job-queue.js";
import type { JobRecord } from "./types.js";
import type { JobWait } from "./wait.js";

/** pino-compatible subset; every object carries `jobId` when there is one. */
export interface QueueLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** `ctx.signal.reason` when the runner aborts a job. */
export type AbortReason =
  | { kind: "cancelled"; by?: string } // `/crewbot cancel`
  | { kind: "shutdown" } // stop() without drain, or the drain timed out
  | { kind: "lease-lost" } // another worker or a recovery took the job over: stop touching it
  | { kind: "superseded"; by: string }; // a later job of the same target and group replaces it (its id)

/** The job has ended. */
export interface EndResult {
  state: EndState;
  /** One line, starting `✅ Done`, `❌ Failed: …`, `⏹ Cancelled` or `⏸ Stopped: …`. */
  outcome: string;
}

/**
 * The job goes back to wait until `runAt` (epoch ms) and runs again from the start then; a deferral
 * uses up no attempt. A cancel or supersede pending at that moment ends it `cancelled` instead.
 */
export interface DeferredResult {
  state: "deferred";
  runAt: number;
  /** One line shown while it waits (the job's `outcome` until it ends). */
  outcome?: string;
}

/** The job asked its requester a question: it waits (holding no slot) until the answer or the wait's expiry. */
export interface WaitingResult {
  state: "waiting";
  wait: JobWait;
  /** One line shown while it waits (`⏳ Waiting for @login`). */
  outcome: string;
}

export type JobResult = EndResult | DeferredResult | WaitingResult;

export interface JobContext {
  signal: AbortSignal;
  workerId: string;
  /** Extends the lease now (heartbeats also run on a timer); aborts the signal if the job was lost or cancelled. */
  heartbeat(): Promise<void>;
  /** Records the progress comment id and that agents started (after that, an interruption is final). */
  update(patch: JobPatch): Promise<void>;
}

export type JobHandler = (job: JobRecord, ctx: JobContext) => Promise<JobResult>;

export interface JobRunnerOptions {
  queue: JobQueue;
  handler: JobHandler;
  /**
   * Unique among live workers. A stable id (e.g. the host name, in embedded mode) lets start()
   * end or requeue this worker's jobs from before a restart at once instead of after their lease.
   */
  workerId?: string;
  limits?: Partial<ClaimLimits>;
  /** Most jobs this runner holds at once, whatever the queue-wide limits allow (default: no own cap). */
  maxActive?: number;
  leaseMs?: number;
  heartbeatMs?: number;
  /** Fallback claim loop; wake() starts jobs without waiting for it. */
  pollMs?: number;
  /** How often to look for jobs whose worker died. */
  recoverEveryMs?: number;
  /** After aborting, how long to wait for handlers before ending their jobs without them. */
  abortGraceMs?: number;
  /** A job ended without its handler's result (worker died, handler threw or hung): finalise its comment. */
  onInterrupted?: (job: JobRecord) => void | Promise<void>;
  logger?: QueueLogger;
}

export interface StopOptions {
  /** Wait for running jobs (up to timeoutMs) before aborting them; default true. */
  drain?: boolean;
  timeoutMs?: number;
}

/** A handler's result, strictly: an end state with a one-line outcome, or a well-formed deferral. */
export function isJobResult(v: unknown): v is JobResult {
  if (typeof v !== "object" || v === null) return false;
  const r = v as Partial<Record<keyof DeferredResult, unknown>>;
  if (r.state === "waiting") return typeof (v as WaitingResult).wait === "object" && isLine((v as WaitingResult).outcome);
  if (r.state === "deferred") {
    return Number.isSafeInteger(r.runAt) && (r.runAt as number) >= 0 && (r.outcome === undefined || isLine(r.outcome));
  }
  return typeof r.state === "string" && isEndState(r.state) && isLine(r.outcome);
}

const isLine = (v: unknown): v is string => typeof v === "string" && v.length > 0;

/** Only the fields a deferral has. */
export const deferredResult = (r: DeferredResult): DeferredResult =>
  r.outcome === undefined ? { state: "deferred", runAt: r.runAt } : { state: "deferred", runAt: r.runAt, outcome: r.outcome };
