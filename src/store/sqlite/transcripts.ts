/** Transcripts in their own SQLite file, `<CREWBOT_DATA_DIR>/transcripts.db` (WAL): the embedded default. */
import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { StoredEntry, TranscriptEntry, TranscriptStore } from "../../transcripts/types.js";

export const TRANSCRIPTS_DB = "transcripts.db";

export class SqliteTranscriptStore implements TranscriptStore {
  private readonly db: Database.Database;

  constructor(options: { dataDir: string }) {
    mkdirSync(options.dataDir, { recursive: true });
    this.db = new Database(path.join(options.dataDir, TRANSCRIPTS_DB));
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("busy_timeout = 5000");
    this.db.exec(`CREATE TABLE IF NOT EXISTS entries (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        job_id TEXT NOT NULL,
        at INTEGER NOT NULL,
        body TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS entries_job ON entries(job_id, seq);
      CREATE TABLE IF NOT EXISTS jobs (job_id TEXT PRIMARY KEY, last_at INTEGER NOT NULL) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS jobs_last ON jobs(last_at);`);
  }

  async append(jobId: string, entries: TranscriptEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const insert = this.db.prepare("INSERT INTO entries (job_id, at, body) VALUES (?, ?, ?)");
    const touch = this.db.prepare(
      "INSERT INTO jobs (job_id, last_at) VALUES (?, ?) ON CONFLICT(job_id) DO UPDATE SET last_at = max(last_at, excluded.last_at)",
    );
    this.db.transaction(() => {
      let last = 0;
      for (const entry of entries) {
        insert.run(jobId, entry.at, JSON.stringify(entry));
        last = Math.max(last, entry.at);
      }
      touch.run(jobId, last);
    })();
  }

  async read(jobId: string, after = 0): Promise<StoredEntry[]> {
    const rows = this.db
      .prepare("SELECT seq, body FROM entries WHERE job_id = ? AND seq > ? ORDER BY seq")
      .all(jobId, after) as Array<{ seq: number; body: string }>;
    return rows.map((row) => ({ ...(JSON.parse(row.body) as TranscriptEntry), seq: row.seq }));
  }

  async prune(before: number): Promise<string[]> {
    return this.db.transaction(() => {
      const ids = (this.db.prepare("SELECT job_id FROM jobs WHERE last_at < ?").all(before) as Array<{ job_id: string }>).map(
        (r) => r.job_id,
      );
      const del = this.db.prepare("DELETE FROM entries WHERE job_id = ?");
      const delJob = this.db.prepare("DELETE FROM jobs WHERE job_id = ?");
      for (const id of ids) {
        del.run(id);
        delJob.run(id);
      }
      return ids;
    })();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
