/**
 * The review store in the queue's SQLite file (`<dataDir>/crewbot.db`, table `review_state`): it opens
 * its own connection through the shared migrations, so either it or the queue may open the file first.
 */
import type Database from "better-sqlite3";
import { checkRecord, loadFindings, mergeFindings, mergeFingerprints, type FindingsUpdate, type ReviewState, type ReviewStore } from "../../review/review-store.js";
import { openDatabase, statementCache } from "./database.js";

export interface SqliteReviewStoreOptions {
  /** The queue's data directory. */
  dataDir: string;
  busyTimeoutMs?: number;
  /** The clock, for tests. */
  now?: () => number;
}

interface StateRow {
  head_sha: string;
  fingerprints_json: string;
  /** `[]` on rows written before findings were kept (schema 5). */
  findings_json: string;
  reviewed_at: number;
}

export class SqliteReviewStore implements ReviewStore {
  readonly file: string;
  private readonly db: Database.Database;
  private readonly now: () => number;
  private readonly stmt: (sql: string) => Database.Statement;

  constructor(opts: SqliteReviewStoreOptions) {
    this.now = opts.now ?? Date.now;
    ({ db: this.db, file: this.file } = openDatabase(opts));
    this.stmt = statementCache(this.db);
  }

  async get(repoKey: string, number: number): Promise<ReviewState | undefined> {
    checkKey(repoKey, number);
    const row = this.read(repoKey, number);
    return row && { headSha: row.head_sha, fingerprints: JSON.parse(row.fingerprints_json), findings: loadFindings(row.findings_json), reviewedAt: row.reviewed_at };
  }

  async record(repoKey: string, number: number, headSha: string, newFingerprints: string[], findings?: FindingsUpdate): Promise<void> {
    checkKey(repoKey, number);
    checkRecord(headSha, newFingerprints, findings);
    this.db
      .transaction(() => {
        const row = this.read(repoKey, number);
        const kept: string[] = row ? JSON.parse(row.fingerprints_json) : [];
        this.stmt(
          `INSERT INTO review_state (repo_key, number, head_sha, fingerprints_json, findings_json, reviewed_at)
           VALUES (@key, @number, @headSha, @fingerprints, @findings, @now)
           ON CONFLICT (repo_key, number) DO UPDATE SET head_sha = excluded.head_sha,
             fingerprints_json = excluded.fingerprints_json, findings_json = excluded.findings_json, reviewed_at = excluded.reviewed_at`,
        ).run({
          key: repoKey.toLowerCase(),
          number,
          headSha,
          fingerprints: JSON.stringify(mergeFingerprints(kept, newFingerprints)),
          findings: JSON.stringify(mergeFindings(loadFindings(row?.findings_json), findings)),
          now: this.now(),
        });
      })
      .immediate();
  }

  async prune(before: number): Promise<number> {
    return this.stmt("DELETE FROM review_state WHERE reviewed_at < ?").run(before).changes;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  private read(repoKey: string, number: number): StateRow | undefined {
    return this.stmt(
      "SELECT head_sha, fingerprints_json, findings_json, reviewed_at FROM review_state WHERE repo_key = ? AND number = ?",
    ).get(repoKey.toLowerCase(), number) as StateRow | undefined;
  }
}

function checkKey(repoKey: string, number: number): void {
  if (typeof repoKey !== "string" || !/^[^/\s]+\/[^/\s]+$/.test(repoKey)) throw new TypeError("repoKey must be owner/repo");
  if (!Number.isSafeInteger(number) || number < 1) throw new TypeError("a pull request number must be a positive integer");
}
