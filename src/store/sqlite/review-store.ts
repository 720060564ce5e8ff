/**
 * The review store in the queue's SQLite file (`<dataDir>/crewbot.db`, table `review_state`): it opens
 * its own connection through the shared migrations, so either it or the queue may open the file first.
 * The merge is `review-documents.ts`; this file only says where a pull request's document lives.
 */
import type Database from "better-sqlite3";
import { loadFindings, type ReviewState } from "../../review/review-store.js";
import type { PullRequestKey } from "../keyed-documents.js";
import { ReviewDocumentStore, type ReviewDocuments } from "../review-documents.js";
import { openDatabase, statementCache } from "./database.js";
import { tableDocuments } from "./sqlite-documents.js";

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

export class SqliteReviewStore extends ReviewDocumentStore {
  readonly file: string;

  constructor(opts: SqliteReviewStoreOptions) {
    const { db, file } = openDatabase(opts);
    super(reviewDocuments(db), opts.now ?? Date.now);
    this.file = file;
  }
}

function reviewDocuments(db: Database.Database): ReviewDocuments {
  const stmt = statementCache(db);
  return tableDocuments<PullRequestKey, ReviewState>(
    db,
    {
      read: ({ repo, number }) => {
        const row = stmt("SELECT head_sha, fingerprints_json, findings_json, reviewed_at FROM review_state WHERE repo_key = ? AND number = ?").get(repo, number) as StateRow | undefined;
        return row && { headSha: row.head_sha, fingerprints: JSON.parse(row.fingerprints_json), findings: loadFindings(row.findings_json), reviewedAt: row.reviewed_at };
      },
      write: ({ repo, number }, doc) => {
        stmt(
          `INSERT INTO review_state (repo_key, number, head_sha, fingerprints_json, findings_json, reviewed_at)
           VALUES (@repo, @number, @headSha, @fingerprints, @findings, @reviewedAt)
           ON CONFLICT (repo_key, number) DO UPDATE SET head_sha = excluded.head_sha,
             fingerprints_json = excluded.fingerprints_json, findings_json = excluded.findings_json, reviewed_at = excluded.reviewed_at`,
        ).run({ repo, number, headSha: doc.headSha, fingerprints: JSON.stringify(doc.fingerprints), findings: JSON.stringify(doc.findings), reviewedAt: doc.reviewedAt });
      },
    },
    { name: "review_state", timeColumn: "reviewed_at" },
  );
}
