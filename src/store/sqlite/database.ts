/**
 * The one SQLite file every embedded store shares, `<dataDir>/crewbot.db`: how it is opened and its
 * schema. The queue and the review store each open their own connection; whichever opens the file
 * first brings the schema up to date, in one `BEGIN IMMEDIATE` transaction.
 */
import { closeSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

export const DB_FILE = "crewbot.db";

/** Each entry upgrades the schema by one version (`PRAGMA user_version`); append, never edit. */
export const MIGRATIONS: readonly string[] = [
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
  // 2: delayed jobs (run_at; jobs from before wait for nothing), supersedable groups, review state.
  `ALTER TABLE jobs ADD COLUMN run_at INTEGER NOT NULL DEFAULT 0;
   UPDATE jobs SET run_at = created_at;
   ALTER TABLE jobs ADD COLUMN job_group TEXT;
   ALTER TABLE jobs ADD COLUMN superseded_by TEXT;
   CREATE INDEX jobs_run_at ON jobs(run_at) WHERE state = 'queued';
   CREATE INDEX jobs_group ON jobs(target_key, job_group, state) WHERE job_group IS NOT NULL;
   CREATE TABLE review_state (
     repo_key TEXT NOT NULL,
     number INTEGER NOT NULL,
     head_sha TEXT NOT NULL,
     fingerprints_json TEXT NOT NULL DEFAULT '[]',
     reviewed_at INTEGER NOT NULL,
     PRIMARY KEY (repo_key, number)
   ) WITHOUT ROWID;`,
  // 3: installations (who installed, which repositories) and each job's start and cost, for the
  // operator's per-installation limits (jobs per hour, USD per month).
  `CREATE TABLE installations (
     id INTEGER PRIMARY KEY,
     account TEXT NOT NULL,
     installed_by TEXT,
     state TEXT NOT NULL,
     repositories_json TEXT NOT NULL DEFAULT '[]',
     all_repositories INTEGER NOT NULL DEFAULT 0,
     updated_at INTEGER NOT NULL
   );
   CREATE TABLE job_usage (
     job_id TEXT PRIMARY KEY,
     installation_id INTEGER NOT NULL,
     started_at INTEGER NOT NULL,
     cost_usd REAL NOT NULL DEFAULT 0
   ) WITHOUT ROWID;
   CREATE INDEX job_usage_installation ON job_usage(installation_id, started_at);`,
  // 4: automatic ci-fix rounds per pull request, and whether crewbot said it stops.
  `CREATE TABLE ci_fix_rounds (
     repo_key TEXT NOT NULL,
     number INTEGER NOT NULL,
     rounds INTEGER NOT NULL DEFAULT 0,
     stopped INTEGER NOT NULL DEFAULT 0,
     last_job TEXT,
     updated_at INTEGER NOT NULL,
     PRIMARY KEY (repo_key, number)
   ) WITHOUT ROWID;`,
  // 5: each posted review finding with its severity, for the sticky review gate; rows from before keep '[]'.
  `ALTER TABLE review_state ADD COLUMN findings_json TEXT NOT NULL DEFAULT '[]';`,
  // 6: learning candidates per repository, and the uses of merged learnings (the last one per learning kept apart, for staleness).
  `CREATE TABLE learning_candidates (
     repo_key TEXT NOT NULL,
     key TEXT NOT NULL,
     candidate_json TEXT NOT NULL,
     first_seen INTEGER NOT NULL,
     last_seen INTEGER NOT NULL,
     PRIMARY KEY (repo_key, key)
   ) WITHOUT ROWID;
   CREATE INDEX learning_candidates_seen ON learning_candidates(last_seen);
   CREATE TABLE learning_uses (
     repo_key TEXT NOT NULL,
     learning_id TEXT NOT NULL,
     job_id TEXT NOT NULL,
     at INTEGER NOT NULL,
     suppressed INTEGER NOT NULL DEFAULT 0,
     shaped INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (repo_key, learning_id, job_id)
   ) WITHOUT ROWID;
   CREATE INDEX learning_uses_at ON learning_uses(repo_key, at);
   CREATE TABLE learning_last_use (
     repo_key TEXT NOT NULL,
     learning_id TEXT NOT NULL,
     at INTEGER NOT NULL,
     PRIMARY KEY (repo_key, learning_id)
   ) WITHOUT ROWID;`,
  // 7: the head commit the last ci-fix round took: one round per head (rows from before have none).
  `ALTER TABLE ci_fix_rounds ADD COLUMN last_head TEXT;`,
  // 8: pull requests a writer paused (`/crewbot pause`); a resume keeps the row with paused = 0.
  `CREATE TABLE pr_pauses (
     repo_key TEXT NOT NULL,
     number INTEGER NOT NULL,
     paused INTEGER NOT NULL DEFAULT 0,
     paused_by TEXT NOT NULL,
     paused_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     PRIMARY KEY (repo_key, number)
   ) WITHOUT ROWID;`,
  // 9: each job's repository in the usage ledger (\`owner/repo\`, lower-cased), for a repository's monthly
  // cap (\`budgets.monthlyUsd\`); rows from before have none and count for their installation only.
  `ALTER TABLE job_usage ADD COLUMN repo_key TEXT;
   CREATE INDEX job_usage_repo ON job_usage(repo_key, started_at) WHERE repo_key IS NOT NULL;`,
  // 10: what the figures of a repository's reviews are computed from (insights/events.ts): one row per type and key.
  `CREATE TABLE insight_events (
     repo_key TEXT NOT NULL,
     repo TEXT NOT NULL,
     type TEXT NOT NULL,
     key TEXT NOT NULL,
     at INTEGER NOT NULL,
     event_json TEXT NOT NULL,
     PRIMARY KEY (repo_key, type, key)
   ) WITHOUT ROWID;
   CREATE INDEX insight_events_at ON insight_events(repo_key, at);
   CREATE INDEX insight_events_time ON insight_events(at);`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export interface OpenDatabaseOptions {
  /** Created (mode 0700) when missing; the file is `<dataDir>/crewbot.db`. */
  dataDir: string;
  /** Milliseconds a statement waits for another writer before failing. */
  busyTimeoutMs?: number;
}

/** Opens (creating it owner-only when missing) and migrates the shared file. */
export function openDatabase(opts: OpenDatabaseOptions): { db: Database.Database; file: string } {
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(opts.dataDir, DB_FILE);
  // Requests and titles of private repositories live here: create it owner-only; SQLite gives
  // the -wal and -shm files the same mode.
  closeSync(openSync(file, "a", 0o600));
  const db = new Database(file);
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs ?? 5000))}`);
    db.pragma("journal_mode = WAL");
    // NORMAL in WAL mode: a commit survives the process dying (a job survives a crash or restart)
    // without an fsync per webhook, which would block the event loop on every delivery; only a
    // power cut can lose the last commits.
    db.pragma("synchronous = NORMAL");
    migrate(db, file);
  } catch (err) {
    db.close();
    throw err;
  }
  return { db, file };
}

function migrate(db: Database.Database, file: string): void {
  db.transaction(() => {
    const version = db.pragma("user_version", { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new Error(`${file} has schema version ${version}, newer than this crewbot (${SCHEMA_VERSION})`);
    }
    for (const sql of MIGRATIONS.slice(version)) db.exec(sql);
    if (version < SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

/** Compiles each SQL text once per connection. */
export function statementCache(db: Database.Database): (sql: string) => Database.Statement {
  const statements = new Map<string, Database.Statement>();
  return (sql) => {
    let s = statements.get(sql);
    if (!s) statements.set(sql, (s = db.prepare(sql)));
    return s;
  };
}
