/**
 * Learning candidates and the uses of merged learnings in the queue's SQLite file (tables
 * `learning_candidates`, `learning_uses`, `learning_last_use`). The merges are `learnings-documents.ts`;
 * this file says where each document lives, drops the candidate seen longest ago when the repository
 * holds more than `MAX_CANDIDATES`, and answers the reads over many rows.
 */
import type Database from "better-sqlite3";
import { loadCandidate, MAX_CANDIDATES, type StoredCandidate } from "../../learnings/candidates.js";
import { LAST_USE_KEPT_MS, type LearningUsage } from "../../learnings/learnings-store.js";
import type { LearningUse } from "../../learnings/types.js";
import { LearningsDocumentStore, type CandidateKey, type LearningKey, type LearningsBackend } from "../learnings-documents.js";
import { openDatabase, statementCache } from "./database.js";
import { SqliteDocuments } from "./sqlite-documents.js";

export interface SqliteLearningsOptions {
  dataDir: string;
  busyTimeoutMs?: number;
  /** The clock, for tests (pruning of last uses). */
  now?: () => number;
}

interface UsageRow {
  learning_id: string;
  reviews: number;
  suppressed: number;
  shaped: number;
  last_used: number;
}

export class SqliteLearningsStore extends LearningsDocumentStore {
  readonly file: string;

  constructor(opts: SqliteLearningsOptions) {
    const { db, file } = openDatabase(opts);
    super(learningsBackend(db, opts.now ?? Date.now));
    this.file = file;
  }
}

function learningsBackend(db: Database.Database, now: () => number): LearningsBackend {
  const stmt = statementCache(db);
  const candidates = new SqliteDocuments<CandidateKey, StoredCandidate>(db, {
    read: ({ repo, key }) => {
      const row = stmt("SELECT candidate_json FROM learning_candidates WHERE repo_key = ? AND key = ?").get(repo, key) as { candidate_json: string } | undefined;
      return loadCandidate(row?.candidate_json);
    },
    write: ({ repo, key }, candidate) => {
      stmt(
        `INSERT INTO learning_candidates (repo_key, key, candidate_json, first_seen, last_seen) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (repo_key, key) DO UPDATE SET candidate_json = excluded.candidate_json, first_seen = excluded.first_seen, last_seen = excluded.last_seen`,
      ).run(repo, key, JSON.stringify(candidate), candidate.firstSeen, candidate.lastSeen);
      stmt(
        `DELETE FROM learning_candidates WHERE repo_key = ? AND key IN (
           SELECT key FROM learning_candidates WHERE repo_key = ? ORDER BY last_seen DESC, key DESC LIMIT -1 OFFSET ?)`,
      ).run(repo, repo, MAX_CANDIDATES);
    },
  });
  const lastUse = new SqliteDocuments<LearningKey, number>(db, {
    read: ({ repo, id }) => (stmt("SELECT at FROM learning_last_use WHERE repo_key = ? AND learning_id = ?").get(repo, id) as { at: number } | undefined)?.at,
    write: ({ repo, id }, at) => {
      stmt("INSERT INTO learning_last_use (repo_key, learning_id, at) VALUES (?, ?, ?) ON CONFLICT (repo_key, learning_id) DO UPDATE SET at = excluded.at").run(repo, id, at);
    },
  });
  return {
    candidates,
    lastUse,
    listCandidates: async (repo) => {
      const rows = stmt("SELECT candidate_json FROM learning_candidates WHERE repo_key = ? ORDER BY first_seen, key").all(repo) as Array<{ candidate_json: string }>;
      return rows.flatMap((r) => loadCandidate(r.candidate_json) ?? []);
    },
    addUse: async (repo: string, u: LearningUse) => {
      stmt(
        `INSERT INTO learning_uses (repo_key, learning_id, job_id, at, suppressed, shaped) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (repo_key, learning_id, job_id) DO UPDATE SET at = excluded.at, suppressed = excluded.suppressed, shaped = excluded.shaped`,
      ).run(repo, u.id, u.jobId, u.at, u.suppressed, u.shaped);
    },
    usage: async (repo, since) => {
      const rows = stmt(
        `SELECT learning_id, COUNT(DISTINCT job_id) AS reviews, SUM(suppressed) AS suppressed, SUM(shaped) AS shaped, MAX(at) AS last_used
         FROM learning_uses WHERE repo_key = ? AND at >= ? GROUP BY learning_id`,
      ).all(repo, since) as UsageRow[];
      return new Map<string, LearningUsage>(rows.map((r) => [r.learning_id, { reviews: r.reviews, suppressed: r.suppressed, shaped: r.shaped, lastUsed: r.last_used }]));
    },
    lastUses: async (repo) => {
      const rows = stmt("SELECT learning_id, at FROM learning_last_use WHERE repo_key = ?").all(repo) as Array<{ learning_id: string; at: number }>;
      return new Map(rows.map((r) => [r.learning_id, r.at]));
    },
    /** Candidates last seen and uses made before `before`; a learning's last use only after `LAST_USE_KEPT_MS`. */
    prune: async (before) =>
      db
        .transaction(() => {
          const dropped = stmt("DELETE FROM learning_candidates WHERE last_seen < ?").run(before).changes;
          const uses = stmt("DELETE FROM learning_uses WHERE at < ?").run(before).changes;
          stmt("DELETE FROM learning_last_use WHERE at < ?").run(now() - LAST_USE_KEPT_MS);
          return dropped + uses;
        })
        .immediate(),
    close: async () => {
      if (db.open) db.close();
    },
  };
}
