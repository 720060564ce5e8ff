/**
 * The embedded job queue: one SQLite file, `<dataDir>/crewbot.db`. Every state change is one
 * `BEGIN IMMEDIATE` transaction (or one statement), so several queue objects or processes on the
 * same file never claim the same job: SQLite's write lock serialises them, `busy_timeout` waits.
 */
import type Database from "better-sqlite3";
import {
  INTERRUPTED_OUTCOME,
  cancelledOutcome,
  isEndState,
  supersededOutcome,
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
import { mayBecomeSql, recoveryOf } from "../job-transitions.js";
import { openDatabase, statementCache } from "./database.js";
import { extraJson, newJobId, validateNewJob } from "../../queue/new-job.js";
import { toRecord, type Row } from "./job-rows.js";
import { targetKey, type EnqueueResult, type JobRecord, type JobState, type NewJob } from "../../queue/types.js";
import { validateAnswer, validateWait, type JobWait, type WaitAnswer } from "../../queue/wait.js";

export { DB_FILE, SCHEMA_VERSION } from "./database.js";


export interface SqliteQueueOptions {
  /** Created (mode 0700) when missing; the file is `<dataDir>/crewbot.db`. */
  dataDir: string;
  /** Milliseconds a statement waits for another writer before failing. */
  busyTimeoutMs?: number;
  /** The clock, for tests. */
  now?: () => number;
}

export class SqliteQueue implements JobQueue {
  readonly file: string;
  private readonly db: Database.Database;
  private readonly now: () => number;
  /** Statements are compiled once per SQL text. */
  private readonly stmt: (sql: string) => Database.Statement;

  constructor(opts: SqliteQueueOptions) {
    this.now = opts.now ?? Date.now;
    ({ db: this.db, file: this.file } = openDatabase(opts));
    this.stmt = statementCache(this.db);
  }

  async enqueue(job: NewJob): Promise<EnqueueResult> {
    validateNewJob(job);
    return this.db
      .transaction((): EnqueueResult => {
        const seen = this.stmt("SELECT * FROM jobs WHERE delivery_id = ?").get(job.deliveryId) as Row | undefined;
        if (seen) return { job: toRecord(seen), duplicate: true, superseded: [] };
        const key = targetKey(job.target);
        const now = this.now();
        const id = newJobId();
        const superseded = job.supersede && job.group !== undefined ? this.supersede(key, job.group, id, now) : [];
        const runAt = job.runAt ?? now;
        // What it waits behind: the running job, else the first queued one due no later than it.
        const ahead = this.stmt(
          `SELECT id FROM jobs WHERE target_key = @key
             AND (state = 'running' OR (state = 'queued' AND run_at <= @runAt))
           ORDER BY state = 'running' DESC, seq LIMIT 1`,
        ).get({ key, runAt }) as { id: string } | undefined;
        const row = this.stmt(
          `INSERT INTO jobs (id, delivery_id, kind, state, target_key, installation_id,
             target_json, trigger_json, repo_json, extra_json, created_at, run_at, job_group)
           VALUES (@id, @deliveryId, @kind, 'queued', @key, @installationId, @target, @trigger, @repo, @extra,
             @now, @runAt, @group)
           RETURNING *`,
        ).get({
          id,
          deliveryId: job.deliveryId,
          kind: job.kind,
          key,
          installationId: job.target.installationId,
          target: JSON.stringify(job.target),
          trigger: JSON.stringify(job.trigger),
          repo: JSON.stringify(job.repo),
          extra: extraJson(job),
          now,
          runAt,
          group: job.group ?? null,
        }) as Row;
        const result: EnqueueResult = { job: toRecord(row), duplicate: false, superseded };
        if (ahead) result.waitingBehind = ahead.id;
        return result;
      })
      .immediate();
  }

  /** Inside enqueue's transaction: the target's queued jobs of the group end, its running ones are flagged. */
  private supersede(key: string, group: string, byId: string, now: number): JobRecord[] {
    const params = { key, group, byId, now, outcome: supersededOutcome(byId) };
    const running = this.stmt(
      `UPDATE jobs SET superseded_by = @byId
       WHERE target_key = @key AND job_group = @group AND state = 'running' RETURNING *`,
    ).all(params) as Row[];
    const queued = this.stmt(
      `UPDATE jobs SET state = 'cancelled', outcome = @outcome, finished_at = @now
       WHERE target_key = @key AND job_group = @group AND state = 'queued' RETURNING *`,
    ).all(params) as Row[];
    return [...running, ...queued].sort((a, b) => a.seq - b.seq).map(toRecord);
  }

  async claim(workerId: string, opts: ClaimOptions): Promise<JobRecord | undefined> {
    if (!workerId) throw new TypeError("claim needs a worker id");
    for (const k of ["perInstallation", "global", "leaseMs"] as const) {
      if (!Number.isInteger(opts[k]) || opts[k] < 1) throw new RangeError(`${k} must be a positive integer`);
    }
    return this.db
      .transaction((): JobRecord | undefined => {
        const { n } = this.stmt("SELECT COUNT(*) AS n FROM jobs WHERE state = 'running'").get() as { n: number };
        if (n >= opts.global) return undefined;
        const now = this.now();
        // Due, first among its target's due jobs, nothing running on the target, its installation
        // under its limit. A job still waiting for its time holds no one up.
        const pick = this.stmt(
          `SELECT j.seq FROM jobs j
           WHERE j.state = 'queued' AND j.run_at <= @now
             AND NOT EXISTS (SELECT 1 FROM jobs o WHERE o.target_key = j.target_key
                             AND (o.state = 'running' OR (o.state = 'queued' AND o.run_at <= @now AND o.seq < j.seq)))
             AND (SELECT COUNT(*) FROM jobs r WHERE r.state = 'running'
                  AND r.installation_id = j.installation_id) < @per
           ORDER BY j.seq LIMIT 1`,
        ).get({ per: opts.perInstallation, now }) as { seq: number } | undefined;
        if (!pick) return undefined;
        const row = this.stmt(
          `UPDATE jobs SET state = 'running', worker_id = @workerId, attempts = attempts + 1, started_at = @now,
             lease_ms = @leaseMs, lease_expires_at = @now + @leaseMs
           WHERE seq = @seq RETURNING *`,
        ).get({ workerId, now, leaseMs: opts.leaseMs, seq: pick.seq }) as Row;
        return toRecord(row);
      })
      .immediate();
  }

  async nextRunAt(): Promise<number | undefined> {
    const { at } = this.stmt("SELECT MIN(run_at) AS at FROM jobs WHERE state = 'queued' AND run_at > ?").get(
      this.now(),
    ) as { at: number | null };
    return at ?? undefined;
  }

  async heartbeat(jobId: string, holder: Holder): Promise<HeartbeatResult> {
    const row = this.stmt(
      `UPDATE jobs SET lease_expires_at = @now + lease_ms
       WHERE id = @jobId AND state = 'running' AND worker_id = @workerId AND attempts = @attempt
       RETURNING cancel_requested, cancelled_by, superseded_by`,
    ).get({ now: this.now(), jobId, ...holder }) as
      | Pick<Row, "cancel_requested" | "cancelled_by" | "superseded_by">
      | undefined;
    if (!row) return { held: false, cancelRequested: false };
    const result: HeartbeatResult = { held: true, cancelRequested: row.cancel_requested === 1 };
    if (row.cancelled_by) result.cancelledBy = row.cancelled_by;
    if (row.superseded_by) result.supersededBy = row.superseded_by;
    return result;
  }

  async defer(jobId: string, holder: Holder, runAt: number, outcome?: string): Promise<JobRecord | undefined> {
    if (!Number.isSafeInteger(runAt) || runAt < 0) throw new TypeError("runAt must be a time in epoch ms");
    return this.db
      .transaction((): JobRecord | undefined => {
        const params = { jobId, ...holder, runAt, outcome: outcome || null, now: this.now() };
        const held = this.stmt(
          `SELECT * FROM jobs WHERE id = @jobId AND state = 'running' AND worker_id = @workerId AND attempts = @attempt`,
        ).get(params) as Row | undefined;
        if (!held) return undefined;
        // A cancel or supersede that came while it ran wins: the job must not come back.
        const ending = endingOf(held);
        if (ending) return toRecord(this.endRow(held.seq, "cancelled", ending, params.now));
        const row = this.stmt(
          `UPDATE jobs SET state = 'queued', run_at = @runAt, outcome = @outcome, worker_id = NULL, lease_ms = NULL,
             lease_expires_at = NULL, started_at = NULL, attempts = MAX(attempts - 1, 0)
           WHERE id = @jobId RETURNING *`,
        ).get(params) as Row;
        return toRecord(row);
      })
      .immediate();
  }

  async pause(jobId: string, holder: Holder, wait: JobWait, outcome: string): Promise<JobRecord | undefined> {
    validateWait(wait);
    return this.db
      .transaction((): JobRecord | undefined => {
        const now = this.now();
        const held = this.stmt(
          `SELECT * FROM jobs WHERE id = @jobId AND state = 'running' AND worker_id = @workerId AND attempts = @attempt`,
        ).get({ jobId, ...holder }) as Row | undefined;
        if (!held) return undefined;
        const ending = endingOf(held);
        if (ending) return toRecord(this.endRow(held.seq, "cancelled", ending, now));
        const extra = { ...parseExtra(held), wait };
        const row = this.stmt(
          `UPDATE jobs SET state = 'queued', run_at = @runAt, outcome = @outcome, extra_json = @extra, worker_id = NULL,
             lease_ms = NULL, lease_expires_at = NULL, started_at = NULL, attempts = MAX(attempts - 1, 0)
           WHERE seq = @seq RETURNING *`,
        ).get({ seq: held.seq, runAt: wait.expiresAt, outcome, extra: JSON.stringify(extra) }) as Row;
        return toRecord(row);
      })
      .immediate();
  }

  async answer(jobId: string, answer: WaitAnswer): Promise<JobRecord | undefined> {
    validateAnswer(answer);
    return this.db
      .transaction((): JobRecord | undefined => {
        const row = this.stmt("SELECT * FROM jobs WHERE id = ? AND state = 'queued'").get(jobId) as Row | undefined;
        const extra = row && parseExtra(row);
        const wait = extra?.wait as JobWait | undefined;
        if (!row || !wait || wait.answer) return undefined;
        const updated = this.stmt(`UPDATE jobs SET run_at = @now, extra_json = @extra WHERE seq = @seq RETURNING *`).get({
          seq: row.seq,
          now: this.now(),
          extra: JSON.stringify({ ...extra, wait: { ...wait, answer } }),
        }) as Row;
        return toRecord(updated);
      })
      .immediate();
  }

  private endRow(seq: number, state: EndState, outcome: string, now: number): Row {
    return this.stmt(
      `UPDATE jobs SET state = @state, outcome = @outcome, finished_at = @now, lease_expires_at = NULL
       WHERE seq = @seq RETURNING *`,
    ).get({ state, outcome, now, seq }) as Row;
  }

  async update(jobId: string, patch: JobPatch): Promise<JobRecord | undefined> {
    const pc = patch.progressCommentId;
    if (pc !== undefined && !Number.isSafeInteger(pc)) throw new TypeError("progressCommentId must be an integer");
    // agentsStarted only ever goes to true: once agents ran, an interruption must stay final.
    const row = this.stmt(
      `UPDATE jobs SET progress_comment_id = COALESCE(@pc, progress_comment_id),
         agents_started = MAX(agents_started, @started)
       WHERE id = @jobId RETURNING *`,
    ).get({ pc: pc ?? null, started: patch.agentsStarted ? 1 : 0, jobId }) as Row | undefined;
    return row && toRecord(row);
  }

  async finish(jobId: string, state: EndState, outcome: string, holder?: Holder): Promise<JobRecord | undefined> {
    if (!isEndState(state)) throw new RangeError(`not an end state: ${String(state)}`);
    // The attempt fences off a stale run of the same worker whose job was requeued and claimed again.
    const owner = holder ? "state = 'running' AND worker_id = @workerId AND attempts = @attempt" : mayBecomeSql(state);
    const row = this.stmt(
      `UPDATE jobs SET state = @state, outcome = @outcome, finished_at = @now, lease_expires_at = NULL
       WHERE id = @jobId AND ${owner} RETURNING *`,
    ).get({ state, outcome, now: this.now(), jobId, workerId: null, attempt: null, ...holder }) as Row | undefined;
    return row && toRecord(row);
  }

  async get(jobId: string): Promise<JobRecord | undefined> {
    const row = this.stmt("SELECT * FROM jobs WHERE id = ?").get(jobId) as Row | undefined;
    return row && toRecord(row);
  }

  async activeOn(key: string): Promise<JobRecord[]> {
    const rows = this.stmt(
      `SELECT * FROM jobs WHERE target_key = ? AND state IN ('running','queued')
       ORDER BY state = 'running' DESC, seq`,
    ).all(key) as Row[];
    return rows.map(toRecord);
  }

  async requestCancel(key: string, by?: string): Promise<JobRecord[]> {
    return this.db
      .transaction((): JobRecord[] => {
        const params = { key, by: by ?? null, outcome: cancelledOutcome(by), now: this.now() };
        const running = this.stmt(
          `UPDATE jobs SET cancel_requested = 1, cancelled_by = COALESCE(@by, cancelled_by)
           WHERE target_key = @key AND state = 'running' RETURNING *`,
        ).all(params) as Row[];
        const queued = this.stmt(
          `UPDATE jobs SET state = 'cancelled', outcome = @outcome, finished_at = @now, cancelled_by = @by
           WHERE target_key = @key AND state = 'queued' RETURNING *`,
        ).all(params) as Row[];
        return [...running, ...queued.sort((a, b) => a.seq - b.seq)].map(toRecord);
      })
      .immediate();
  }

  async recoverStale(now = this.now(), opts: RecoverOptions = {}): Promise<StaleRecovery> {
    return this.db
      .transaction((): StaleRecovery => {
        const stale = this.stmt(
          `SELECT * FROM jobs WHERE state = 'running' AND (lease_expires_at <= @now OR worker_id = @dead) ORDER BY seq`,
        ).all({ now, dead: opts.deadWorker ?? null }) as Row[];
        const requeue = this.stmt(
          `UPDATE jobs SET state = 'queued', worker_id = NULL, lease_expires_at = NULL WHERE seq = ? RETURNING *`,
        );
        const result: StaleRecovery = { requeued: [], interrupted: [] };
        for (const row of stale) {
          const ending = endingOf(row);
          const recovery = recoveryOf({ agentsStarted: row.agents_started !== 0, attempts: row.attempts }, ending !== undefined);
          if (recovery === "ending") result.interrupted.push(toRecord(this.endRow(row.seq, "cancelled", ending!, now)));
          else if (recovery === "requeue") result.requeued.push(toRecord(requeue.get(row.seq) as Row));
          else result.interrupted.push(toRecord(this.endRow(row.seq, "failed", INTERRUPTED_OUTCOME, now)));
        }
        return result;
      })
      .immediate();
  }

  async listRecent(opts: ListOptions = {}): Promise<JobRecord[]> {
    const where: string[] = [];
    if (opts.targetKey !== undefined) where.push("target_key = @targetKey");
    if (opts.state !== undefined) where.push("state = @state");
    const limit = Math.max(1, Math.min(1000, Math.floor(opts.limit ?? 50)));
    const filter = where.length ? `WHERE ${where.join(" AND ")}` : "";
    const rows = this.stmt(`SELECT * FROM jobs ${filter} ORDER BY seq DESC LIMIT ${limit}`).all({
      targetKey: opts.targetKey ?? null,
      state: opts.state ?? null,
    }) as Row[];
    return rows.map(toRecord);
  }

  async count(state: JobState): Promise<number> {
    return (this.stmt("SELECT COUNT(*) AS n FROM jobs WHERE state = ?").get(state) as { n: number }).n;
  }

  async prune(before: number): Promise<string[]> {
    if (!Number.isFinite(before)) throw new TypeError("prune needs a time in epoch ms");
    const rows = this.stmt(
      `DELETE FROM jobs WHERE state IN ('succeeded', 'failed', 'cancelled') AND finished_at IS NOT NULL AND finished_at < ? RETURNING id`,
    ).all(before) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

const parseExtra = (row: Row): Record<string, unknown> =>
  row.extra_json === null ? {} : (JSON.parse(row.extra_json) as Record<string, unknown>);

/** The outcome a running job ends with instead of running on or coming back: a pending cancel, then a supersede. */
function endingOf(row: Row): string | undefined {
  if (row.cancel_requested) return cancelledOutcome(row.cancelled_by ?? undefined);
  if (row.superseded_by !== null) return supersededOutcome(row.superseded_by);
  return undefined;
}
