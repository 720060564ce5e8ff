/**
 * The embedded worker loop: claims jobs from a JobQueue, runs them with a handler, keeps their
 * leases alive, and always ends them — a handler that throws, hangs past a shutdown or loses its
 * lease still leaves the job in an end state with an outcome, never `running`.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import {
  DEFAULT_LEASE_MS,
  DEFAULT_LIMITS,
  INTERRUPTED_OUTCOME,
  cancelledOutcome,
  supersededOutcome,
  type ClaimLimits,
  type Holder,
  type JobQueue,
} from "./job-queue.js";
import {
  deferredResult,
  isJobResult,
  type AbortReason,
  type DeferredResult,
  type EndResult,
  type JobContext,
  type JobHandler,
  type JobResult,
  type JobRunnerOptions,
  type QueueLogger,
  type StopOptions,
  type WaitingResult,
} from "./runner-types.js";
import type { JobRecord } from "./types.js";
import type { WaitAnswer } from "./wait.js";

export type * from "./runner-types.js";

const silent: QueueLogger = { info() {}, warn() {}, error() {} };

/** One claim of a job: a requeued job may be claimed again while a stale run of it still winds down. */
interface Active {
  job: JobRecord;
  holder: Holder;
  controller: AbortController;
  /** Resolves to stop waiting for a handler that ignores its signal. */
  abandon: () => void;
  done: Promise<void>;
  /** Renews its lease now (and aborts it when lost, cancelled or superseded). */
  beat: () => Promise<void>;
}

type Status = "new" | "running" | "stopping" | "stopped";

export class JobRunner {
  readonly workerId: string;
  private readonly queue: JobQueue;
  private readonly handler: JobHandler;
  private readonly limits: ClaimLimits;
  private readonly maxActive: number;
  private readonly leaseMs: number;
  private readonly heartbeatMs: number;
  private readonly pollMs: number;
  private readonly recoverEveryMs: number;
  private readonly abortGraceMs: number;
  private readonly onInterrupted: ((job: JobRecord) => void | Promise<void>) | undefined;
  private readonly log: QueueLogger;
  private readonly active = new Set<Active>();
  private status: Status = "new";
  private timers: NodeJS.Timeout[] = [];
  /** Wakes the runner when the earliest waiting job becomes due. */
  private runAtTimer: NodeJS.Timeout | undefined;
  private tickPromise: Promise<void> | undefined;
  private tickAgain = false;
  private stopPromise: Promise<void> | undefined;

  constructor(opts: JobRunnerOptions) {
    this.queue = opts.queue;
    this.handler = opts.handler;
    this.workerId = opts.workerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.maxActive = opts.maxActive ?? Number.POSITIVE_INFINITY;
    this.leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
    this.heartbeatMs = opts.heartbeatMs ?? Math.floor(this.leaseMs / 4);
    this.pollMs = opts.pollMs ?? 5_000;
    this.recoverEveryMs = opts.recoverEveryMs ?? Math.floor(this.leaseMs / 2);
    this.abortGraceMs = opts.abortGraceMs ?? 10_000;
    this.onInterrupted = opts.onInterrupted;
    this.log = opts.logger ?? silent;
    // A heartbeat slower than the lease would let live jobs be taken for dead.
    if (!(this.heartbeatMs > 0 && this.heartbeatMs < this.leaseMs)) {
      throw new RangeError("heartbeatMs must be positive and shorter than leaseMs");
    }
  }

  /** Ids of the jobs this runner is running now. */
  get running(): string[] {
    return [...this.active].map((a) => a.job.id);
  }

  /** Recovers jobs whose worker died (this one, before a restart, included), then starts claiming. */
  async start(): Promise<void> {
    if (this.status !== "new") throw new Error(`runner already ${this.status}`);
    this.status = "running";
    await this.recover(true);
    if (this.status !== "running") return;
    this.timers.push(
      setInterval(() => this.wake(), this.pollMs),
      setInterval(() => void this.recover(false), this.recoverEveryMs),
    );
    for (const t of this.timers) t.unref();
    this.log.info({ workerId: this.workerId, limits: this.limits }, "job runner started");
    this.wake();
  }

  /** Claims and starts jobs now (call after enqueue); cheap and safe to call any time. */
  wake(): void {
    if (this.status !== "running") return;
    if (this.tickPromise) {
      this.tickAgain = true;
      return;
    }
    this.tickPromise = this.tick().finally(() => {
      this.tickPromise = undefined;
      if (this.tickAgain) {
        this.tickAgain = false;
        this.wake();
      }
    });
  }

  /** `/crewbot cancel`: queued jobs of the target end now; its running job is aborted (elsewhere: at the next heartbeat). */
  async cancel(targetKey: string, by?: string): Promise<JobRecord[]> {
    const affected = await this.queue.requestCancel(targetKey, by);
    for (const job of affected) {
      for (const entry of this.active) {
        if (entry.job.id === job.id) this.abort(entry, cancelReason(by));
      }
      this.log.info({ jobId: job.id, state: job.state, by }, "job cancel requested");
    }
    return affected;
  }

  /** A waiting job's answer: recorded once (undefined when nothing waits for it), and the job is claimed again at once. */
  async answer(jobId: string, answer: WaitAnswer): Promise<JobRecord | undefined> {
    const job = await this.queue.answer(jobId, answer);
    if (job) {
      this.log.info({ jobId, by: answer.by, option: answer.option }, "waiting job answered");
      this.wake();
    }
    return job;
  }

  /** Stops claiming; drains or aborts running jobs; resolves when none is left running here. */
  stop(opts: StopOptions = {}): Promise<void> {
    this.stopPromise ??= this.shutdown(opts.drain ?? true, opts.timeoutMs ?? 30_000);
    return this.stopPromise;
  }

  private async shutdown(drain: boolean, timeoutMs: number): Promise<void> {
    this.status = "stopping";
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await this.tickPromise; // a claim in flight may still add a job
    clearTimeout(this.runAtTimer);
    this.log.info({ workerId: this.workerId, running: this.running, drain }, "job runner stopping");
    if (drain) await this.settle(timeoutMs);
    for (const entry of this.active) this.abort(entry, { kind: "shutdown" });
    await this.settle(this.abortGraceMs);
    for (const entry of this.active) entry.abandon();
    await this.settle(Infinity);
    this.status = "stopped";
    this.log.info({ workerId: this.workerId }, "job runner stopped");
  }

  /** Resolves when every active job is done, or after ms. */
  private async settle(ms: number): Promise<void> {
    if (this.active.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const all = Promise.all([...this.active].map((a) => a.done));
    if (ms === Infinity) return void (await all);
    await Promise.race([all, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
  }

  private async tick(): Promise<void> {
    // A full runner claims nothing: another worker sharing the queue takes the job.
    while (this.status === "running" && this.active.size < this.maxActive) {
      let job: JobRecord | undefined;
      try {
        job = await this.queue.claim(this.workerId, { ...this.limits, leaseMs: this.leaseMs });
      } catch (err) {
        this.log.error({ err, workerId: this.workerId }, "claiming a job failed");
        return;
      }
      if (!job) return this.armRunAtTimer();
      this.launch(job);
    }
  }

  /** Idle: wake when the earliest waiting job becomes due, not only at the next poll. */
  private async armRunAtTimer(): Promise<void> {
    let at: number | undefined;
    try {
      at = await this.queue.nextRunAt();
    } catch (err) {
      this.log.error({ err, workerId: this.workerId }, "reading the next job time failed");
      return;
    }
    clearTimeout(this.runAtTimer);
    this.runAtTimer = undefined;
    if (at === undefined || this.status !== "running") return;
    // setTimeout fires at once past 2^31-1 ms; the poll covers anything further away.
    const delay = Math.min(Math.max(0, at - Date.now()) + 1, 2 ** 31 - 1);
    this.runAtTimer = setTimeout(() => {
      this.runAtTimer = undefined;
      this.wake();
    }, delay);
    this.runAtTimer.unref();
  }

  private async recover(atStart: boolean): Promise<void> {
    try {
      // After a stall (a blocked event loop, a suspended host) this runner's own leases may have run out
      // while its jobs still run here: renewed first, they are not taken for a dead worker's.
      if (!atStart) await Promise.allSettled([...this.active].map((entry) => entry.beat()));
      const opts = atStart ? { deadWorker: this.workerId } : {};
      const { requeued, interrupted } = await this.queue.recoverStale(undefined, opts);
      for (const job of requeued) this.log.warn({ jobId: job.id, attempts: job.attempts }, "interrupted job requeued");
      for (const job of interrupted) {
        this.log.warn({ jobId: job.id, outcome: job.outcome }, "interrupted job ended");
        await this.notifyInterrupted(job);
      }
      if (requeued.length) this.wake();
    } catch (err) {
      this.log.error({ err, workerId: this.workerId }, "recovering stale jobs failed");
    }
  }

  private launch(job: JobRecord): void {
    let abandon!: () => void;
    const abandoned = new Promise<"abandoned">((resolve) => (abandon = () => resolve("abandoned")));
    const holder = { workerId: this.workerId, attempt: job.attempts };
    const entry: Active = { job, holder, controller: new AbortController(), abandon, done: Promise.resolve(), beat: async () => {} };
    this.active.add(entry);
    this.log.info({ jobId: job.id, kind: job.kind, attempt: job.attempts }, "job started");
    entry.done = this.run(entry, abandoned)
      .catch((err) => this.log.error({ err, jobId: job.id }, "job runner bookkeeping failed"))
      .finally(() => {
        this.active.delete(entry);
        this.wake(); // a slot or the target is free now
      });
  }

  private async run(entry: Active, abandoned: Promise<"abandoned">): Promise<void> {
    const { job, controller } = entry;
    const beat = (entry.beat = async (): Promise<void> => {
      const hb = await this.queue.heartbeat(job.id, entry.holder);
      if (!hb.held) this.abort(entry, { kind: "lease-lost" });
      else if (hb.cancelRequested) {
        this.abort(entry, cancelReason(hb.cancelledBy));
      } else if (hb.supersededBy !== undefined) {
        this.abort(entry, { kind: "superseded", by: hb.supersededBy });
      }
    });
    const timer = setInterval(() => {
      beat().catch((err) => this.log.warn({ err, jobId: job.id }, "heartbeat failed"));
    }, this.heartbeatMs);
    timer.unref();
    const ctx: JobContext = {
      signal: controller.signal,
      workerId: this.workerId,
      heartbeat: beat,
      update: async (patch) => void (await this.queue.update(job.id, patch)),
    };

    let result: JobResult;
    let fromHandler = false;
    // Through a then(), so a handler that throws synchronously is a rejection too.
    const work = Promise.resolve().then(() => this.handler(job, ctx));
    work.catch(() => {}); // it may settle after being abandoned; that must not be an unhandled rejection
    try {
      const settled = await Promise.race([work, abandoned]);
      if (settled === "abandoned") {
        this.log.warn({ jobId: job.id }, "handler ignored its abort; ending the job without it");
        result = this.resultOfAbort(controller.signal) ?? { state: "failed", outcome: INTERRUPTED_OUTCOME };
      } else if (isJobResult(settled)) {
        result =
          settled.state === "deferred" ? deferredResult(settled)
          : settled.state === "waiting" ? { state: "waiting", wait: settled.wait, outcome: settled.outcome }
          : { state: settled.state, outcome: settled.outcome };
        fromHandler = true;
      } else {
        result = { state: "failed", outcome: "❌ Failed: the job handler returned no result" };
      }
    } catch (err) {
      // A handler that throws because it was aborted ends as the abort says; any other throw is a failure.
      const aborted = this.resultOfAbort(controller.signal);
      if (!aborted) this.log.error({ err, jobId: job.id }, "job handler threw");
      result = aborted ?? { state: "failed", outcome: `❌ Failed: ${errorLine(err)}` };
    } finally {
      clearInterval(timer);
    }

    if (result.state === "deferred") return this.deferJob(entry, result);
    if (result.state === "waiting") return this.pauseJob(entry, result);
    const ended = await this.finish(entry, result);
    if (!ended) {
      this.log.warn({ jobId: job.id, ...result }, "job was no longer held by this worker; its result is dropped");
      return;
    }
    this.log.info({ jobId: job.id, state: ended.state, outcome: ended.outcome }, "job ended");
    if (!fromHandler) await this.notifyInterrupted(ended);
  }

  /** The handler put its job back to wait; a pending cancel or supersede ends it instead. */
  private async deferJob(entry: Active, result: DeferredResult): Promise<void> {
    const { job, holder } = entry;
    const now = await this.retry(job.id, "deferring the job", () =>
      this.queue.defer(job.id, holder, result.runAt, result.outcome),
    );
    if (!now) {
      this.log.warn({ jobId: job.id, runAt: result.runAt }, "job was no longer held by this worker; its deferral is dropped");
    } else if (now.state === "queued") {
      this.log.info({ jobId: job.id, runAt: result.runAt, outcome: result.outcome }, "job deferred");
    } else {
      // Its handler expected to run again and reported nothing final: finalise its comment.
      this.log.info({ jobId: job.id, state: now.state, outcome: now.outcome }, "job ended instead of deferring");
      await this.notifyInterrupted(now);
    }
  }

  /** The handler asked a question: the job waits queued until answered or expired; a pending cancel ends it instead. */
  private async pauseJob(entry: Active, result: WaitingResult): Promise<void> {
    const { job, holder } = entry;
    const now = await this.retry(job.id, "pausing the job", () => this.queue.pause(job.id, holder, result.wait, result.outcome));
    if (!now) {
      this.log.warn({ jobId: job.id }, "job was no longer held by this worker; its pause is dropped");
    } else if (now.state === "queued") {
      this.log.info({ jobId: job.id, expiresAt: result.wait.expiresAt, outcome: result.outcome }, "job waits for an answer");
    } else {
      this.log.info({ jobId: job.id, state: now.state, outcome: now.outcome }, "job ended instead of waiting");
      await this.notifyInterrupted(now);
    }
  }

  /** What an aborted job ends as when its handler did not say. */
  private resultOfAbort(signal: AbortSignal): EndResult | undefined {
    if (!signal.aborted) return undefined;
    const reason = signal.reason as AbortReason;
    if (reason.kind === "cancelled") return { state: "cancelled", outcome: cancelledOutcome(reason.by) };
    if (reason.kind === "superseded") return { state: "cancelled", outcome: supersededOutcome(reason.by) };
    if (reason.kind === "lease-lost") return { state: "failed", outcome: "❌ Failed: lease lost" };
    return { state: "failed", outcome: INTERRUPTED_OUTCOME };
  }

  /** A few tries: a job whose finish is lost would later be taken for interrupted, even retried. */
  private finish(entry: Active, result: EndResult): Promise<JobRecord | undefined> {
    const { job, holder } = entry;
    return this.retry(job.id, "recording the job's end", () =>
      this.queue.finish(job.id, result.state, result.outcome, holder),
    );
  }

  private async retry<T>(jobId: string, what: string, op: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await op();
      } catch (err) {
        if (attempt >= 3) throw err;
        this.log.warn({ err, jobId, attempt }, `${what} failed; retrying`);
        await new Promise((r) => setTimeout(r, 200 * attempt));
      }
    }
  }

  private abort(entry: Active, reason: AbortReason): void {
    if (entry.controller.signal.aborted) return;
    this.log.info({ jobId: entry.job.id, reason }, "aborting job");
    entry.controller.abort(reason);
    // Its heartbeats would keep a handler that ignores the abort running (and its slot, and its target's
    // line, taken) forever: after the grace the job ends as the abort says, without it.
    const grace = setTimeout(() => entry.abandon(), this.abortGraceMs);
    grace.unref();
    void entry.done.finally(() => clearTimeout(grace));
  }

  private async notifyInterrupted(job: JobRecord): Promise<void> {
    try {
      await this.onInterrupted?.(job);
    } catch (err) {
      this.log.error({ err, jobId: job.id }, "onInterrupted failed");
    }
  }
}

const cancelReason = (by?: string): AbortReason =>
  by === undefined ? { kind: "cancelled" } : { kind: "cancelled", by };

/** The first line of an error's message, kept short: it becomes the comment's status line. */
function errorLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  const line = msg.split("\n").find((l) => l.trim())?.trim() ?? "error";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
