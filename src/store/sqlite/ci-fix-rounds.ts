/**
 * The ci-fix round counts in the queue's SQLite file (table `ci_fix_rounds`, with the head the last
 * round took). The rules are `ci-fix-documents.ts`; this file only says where a pull request's count lives.
 */
import type Database from "better-sqlite3";
import { RoundsDocumentStore, type RoundsDoc, type RoundsDocuments } from "../ci-fix-documents.js";
import type { PullRequestKey } from "../keyed-documents.js";
import { openDatabase, statementCache } from "./database.js";
import { tableDocuments } from "./sqlite-documents.js";

export interface SqliteCiFixRoundsOptions {
  dataDir: string;
  busyTimeoutMs?: number;
  now?: () => number;
}

interface Row {
  rounds: number;
  stopped: number;
  last_job: string | null;
  last_head: string | null;
  updated_at: number;
}

export class SqliteCiFixRounds extends RoundsDocumentStore {
  readonly file: string;

  constructor(opts: SqliteCiFixRoundsOptions) {
    const { db, file } = openDatabase(opts);
    super(roundsDocuments(db), opts.now ?? Date.now);
    this.file = file;
  }
}

function roundsDocuments(db: Database.Database): RoundsDocuments {
  const stmt = statementCache(db);
  return tableDocuments<PullRequestKey, RoundsDoc>(
    db,
    {
      read: ({ repo, number }) => {
        const row = stmt("SELECT rounds, stopped, last_job, last_head, updated_at FROM ci_fix_rounds WHERE repo_key = ? AND number = ?").get(repo, number) as Row | undefined;
        if (!row) return undefined;
        const doc: RoundsDoc = { rounds: row.rounds, stopped: row.stopped === 1, updatedAt: row.updated_at };
        if (row.last_job !== null) doc.lastJob = row.last_job;
        if (row.last_head !== null) doc.lastHead = row.last_head;
        return doc;
      },
      write: ({ repo, number }, doc) => {
        stmt(
          `INSERT INTO ci_fix_rounds (repo_key, number, rounds, stopped, last_job, last_head, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (repo_key, number) DO UPDATE SET rounds = excluded.rounds, stopped = excluded.stopped,
             last_job = excluded.last_job, last_head = excluded.last_head, updated_at = excluded.updated_at`,
        ).run(repo, number, doc.rounds, doc.stopped ? 1 : 0, doc.lastJob ?? null, doc.lastHead ?? null, doc.updatedAt);
      },
    },
    { name: "ci_fix_rounds", timeColumn: "updated_at" },
  );
}
