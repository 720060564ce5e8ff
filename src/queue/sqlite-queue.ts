/**
 * The embedded job queue: one SQLite file, `<dataDir>/crewbot.db`. Every state change is one
 * `BEGIN IMMEDIATE` transaction (or one statement), so several queue objects or processes on the
 * same file never claim the same job: SQLite's write lock serialises them, `busy_timeout` waits.
 */
import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
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
} from "./job-queue.js";
import { targetKey, type EnqueueResult, type JobKind, type JobRecord, type JobState, type NewJob } from "./types.js";

export const DB_FILE = "crewbot.db";

/** Each entry upgrades the schema by one version (`PRAGMA user_version`); append, never edit. */
const MIGRATIONS: string[] = [
  `CREATE TABLE jobs (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL UNIQUE,
     delivery_id TEXT NOT NULL UNIQUE,
     kind TEXT NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('queued','running','succeeded','failed','cancelled')),
     target_key TEXT NOT NULL,
     installation_id INTEGER NOT NULL,
     target_json TEXT NOT NULL,
     trigger_json TEXT NOT NULL,
     repo_json TEXT NOT NULL,
     extra_json TEXT,
     attempts INTEGER NOT NULL DEFAULT 0,
     created_at INTEGER NOT NULL,
     started_at INTEGER,
     finished_at INTEGER,
     worker_id TEXT,
     lease_ms INTEGER,
     lease_expires_at INTEGER,
     progress_comment_id INTEGER,
     agents_started INTEGER NOT NULL DEFAULT 0,
     cancel_requested INTEGER NOT NULL DEFAULT 0,
     cancelled_by TEXT,
     outcome TEXT
   );
   CREATE INDEX jobs_queued ON jobs(seq) WHERE state = 'queued';
   CREATE INDEX jobs_running ON jobs(installation_id, lease_expires_at) WHERE state = 'running';
   CREATE INDEX jobs_target ON jobs(target_key, state, seq);`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

interface Row {
  seq: number;
  id: string;
  delivery_id: string;
  kind: JobKind;
  state: JobState;
  target_json: string;
  trigger_json: string;
  repo_json: string;
  extra_json: string | null;
  attempts: number;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  worker_id: string | null;
  lease_expires_at: number | null;
  progress_comment_id: number | null;
  agents_started: number;
  cancel_requested: number;
  cancelled_by: string | null;
  outcome: string | null;
}

const KINDS: readonly string[] = ["plan", "implement", "review"];
const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** 16 base32 characters, 80 random bits: ids sit in public comments and URLs, so they must not be guessable. */
export function newJobId(): string {
  // 32 divides 256, so `byte % 32` has no bias.
  return Array.from(randomBytes(16), (b) => BASE32[b % 32]).join("");
}

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
  private readonly statements = new Map<string, Database.Statement>();

  constructor(opts: SqliteQueueOptions) {
    this.now = opts.now ?? Date.now;
    mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
    this.file = path.join(opts.dataDir, DB_FILE);
    // Requests and titles of private repositories live here: create it owner-only; SQLite gives
    // the -wal and -shm files the same mode.
    closeSync(openSync(this.file, "a", 0o600));
    this.db = new Database(this.file);
    try {
      this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs ?? 5000))}`);
      this.db.pragma("journal_mode = WAL");
      // NORMAL in WAL mode: a commit survives the process dying (a job survives a crash or restart)
      // without an fsync per webhook, which would block the event loop on every delivery; only a
      // power cut can lose the last commits.
      this.db.pragma("synchronous = NORMAL");
      this.migrate();
    } catch (err) {
      this.db.close();
      throw err;
    }
  }

  /** Statements are compiled once per SQL text. */
  private stmt(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) this.statements.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  private migrate(): void {
    this.db
      .transaction(() => {
        const version = this.db.pragma("user_version", { simple: true }) as number;
        if (version > SCHEMA_VERSION) {
          throw new Error(`${this.file} has schema version ${version}, newer than this crewbot (${SCHEMA_VERSION})`);
        }
        for (const sql of MIGRATIONS.slice(version)) this.db.exec(sql);
        if (version < SCHEMA_VERSION) this.db.pragma(`user_version = ${SCHEMA_VERSION}`);
      })
      .immediate();
  }

  async enqueue(job: NewJob): Promise<EnqueueResult> {
    validateNewJob(job);
    return this.db
      .transaction((): EnqueueResult => {
        const seen = this.stmt("SELECT * FROM jobs WHERE delivery_id = ?").get(job.deliveryId) as Row | undefined;
        if (seen) return { job: toRecord(seen), duplicate: true };
        const key = targetKey(job.target);
        const ahead = this.stmt(
          `SELECT id FROM jobs WHERE target_key = ? AND state IN ('running','queued')
           ORDER BY state = 'running' DESC, seq LIMIT 1`,
        ).get(key) as { id: string } | undefined;
        const row = this.stmt(
          `INSERT INTO jobs (id, delivery_id, kind, state, target_key, installation_id,
             target_json, trigger_json, repo_json, extra_json, created_at)
           VALUES (@id, @deliveryId, @kind, 'queued', @key, @installationId, @target, @trigger, @repo, @extra, @now)
           RETURNING *`,
        ).get({
          id: newJobId(),
          deliveryId: job.deliveryId,
          kind: job.kind,
          key,
          installationId: job.target.installationId,
          target: JSON.stringify(job.target),
          trigger: JSON.stringify(job.trigger),
          repo: JSON.stringify(job.repo),
          extra: extraJson(job),
          now: this.now(),
        }) as Row;
        const result: EnqueueResult = { job: toRecord(row), duplicate: false };
        if (ahead) result.waitingBehind = ahead.id;
        return result;
      })
      .immediate();
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
        // First in its target's line, nothing running on the target, its installation under its limit.
        const pick = this.stmt(
          `SELECT j.seq FROM jobs j
           WHERE j.state = 'queued'
             AND NOT EXISTS (SELECT 1 FROM jobs o WHERE o.target_key = j.target_key
                             AND (o.state = 'running' OR (o.state = 'queued' AND o.seq < j.seq)))
             AND (SELECT COUNT(*) FROM jobs r WHERE r.state = 'running'
                  AND r.installation_id = j.installation_id) < @per
           ORDER BY j.seq LIMIT 1`,
        ).get({ per: opts.perInstallation }) as { seq: number } | undefined;
        if (!pick) return undefined;
        const now = this.now();
        const row = this.stmt(
          `UPDATE jobs SET state = 'running', worker_id = @workerId, attempts = attempts + 1, started_at = @now,
             lease_ms = @leaseMs, lease_expires_at = @now + @leaseMs
           WHERE seq = @seq RETURNING *`,
        ).get({ workerId, now, leaseMs: opts.leaseMs, seq: pick.seq }) as Row;
        return toRecord(row);
      })
      .immediate();
  }

  async heartbeat(jobId: string, holder: Holder): Promise<HeartbeatResult> {
    const row = this.stmt(
      `UPDATE jobs SET lease_expires_at = @now + lease_ms
       WHERE id = @jobId AND state = 'running' AND worker_id = @workerId AND attempts = @attempt
       RETURNING cancel_requested, cancelled_by`,
    ).get({ now: this.now(), jobId, ...holder }) as Pick<Row, "cancel_requested" | "cancelled_by"> | undefined;
    if (!row) return { held: false, cancelRequested: false };
    const result: HeartbeatResult = { held: true, cancelRequested: row.cancel_requested === 1 };
    if (row.cancelled_by) result.cancelledBy = row.cancelled_by;
    return result;
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
    const owner = holder
      ? "state = 'running' AND worker_id = @workerId AND attempts = @attempt"
      : "state IN ('queued','running')";
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
        const end = this.stmt(
          `UPDATE jobs SET state = @state, outcome = @outcome, finished_at = @now, lease_expires_at = NULL
           WHERE seq = @seq RETURNING *`,
        );
        const result: StaleRecovery = { requeued: [], interrupted: [] };
        for (const row of stale) {
          if (row.cancel_requested) {
            const outcome = cancelledOutcome(row.cancelled_by ?? undefined);
            result.interrupted.push(toRecord(end.get({ state: "cancelled", outcome, now, seq: row.seq }) as Row));
          } else if (!row.agents_started && row.attempts < 2) {
            result.requeued.push(toRecord(requeue.get(row.seq) as Row));
          } else {
            const ended = end.get({ state: "failed", outcome: INTERRUPTED_OUTCOME, now, seq: row.seq }) as Row;
            result.interrupted.push(toRecord(ended));
          }
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

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

function validateNewJob(job: NewJob): void {
  if (typeof job.deliveryId !== "string" || !job.deliveryId) throw new TypeError("a job needs a delivery id");
  if (!KINDS.includes(job.kind)) throw new TypeError(`unknown job kind: ${String(job.kind)}`);
  const t = job.target;
  if (!Number.isSafeInteger(t?.installationId) || !Number.isSafeInteger(t.number) || !t.owner || !t.repo) {
    throw new TypeError("a job needs a target with installationId, owner, repo and number");
  }
}

/** Fields with their own columns, or that the queue alone sets: never taken from the extra column. */
const CORE_FIELDS = new Set([
  ...["deliveryId", "kind", "target", "trigger", "repo", "id", "state", "attempts", "createdAt", "startedAt"],
  ...["finishedAt", "progressCommentId", "agentsStarted", "outcome", "cancelRequested", "cancelledBy"],
  ...["workerId", "leaseExpiresAt"],
]);

/** The job's other fields (`subject`, and whatever NewJob gains later) in one column: no migration per field. */
function extraJson(job: NewJob): string | null {
  const extra = Object.fromEntries(Object.entries(job).filter(([k, v]) => !CORE_FIELDS.has(k) && v !== undefined));
  return Object.keys(extra).length ? JSON.stringify(extra) : null;
}

function toRecord(row: Row): JobRecord {
  const job: JobRecord = {
    ...(row.extra_json === null ? {} : (JSON.parse(row.extra_json) as Partial<NewJob>)),
    id: row.id,
    deliveryId: row.delivery_id,
    kind: row.kind,
    target: JSON.parse(row.target_json),
    trigger: JSON.parse(row.trigger_json),
    repo: JSON.parse(row.repo_json),
    state: row.state,
    attempts: row.attempts,
    createdAt: row.created_at,
  };
  if (row.started_at !== null) job.startedAt = row.started_at;
  if (row.finished_at !== null) job.finishedAt = row.finished_at;
  if (row.progress_comment_id !== null) job.progressCommentId = row.progress_comment_id;
  if (row.agents_started) job.agentsStarted = true;
  if (row.outcome !== null) job.outcome = row.outcome;
  if (row.cancel_requested) job.cancelRequested = true;
  if (row.cancelled_by !== null) job.cancelledBy = row.cancelled_by;
  if (row.worker_id !== null) job.workerId = row.worker_id;
  if (row.lease_expires_at !== null) job.leaseExpiresAt = row.lease_expires_at;
  return job;
}
