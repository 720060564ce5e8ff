/**
 * The pauses in the queue's SQLite file (table `pr_pauses`). The rules are `pause-documents.ts`;
 * this file only says where a pull request's pause lives.
 */
import type Database from "better-sqlite3";
import type { PullRequestKey } from "../keyed-documents.js";
import { PauseDocumentStore, type PauseDoc, type PauseDocuments } from "../pause-documents.js";
import { openDatabase, statementCache } from "./database.js";
import { tableDocuments } from "./sqlite-documents.js";

export interface SqlitePausesOptions {
  dataDir: string;
  busyTimeoutMs?: number;
  now?: () => number;
}

interface Row {
  paused: number;
  paused_by: string;
  paused_at: number;
  updated_at: number;
}

export class SqlitePauses extends PauseDocumentStore {
  readonly file: string;

  constructor(opts: SqlitePausesOptions) {
    const { db, file } = openDatabase(opts);
    super(pauseDocuments(db), opts.now ?? Date.now);
    this.file = file;
  }
}

function pauseDocuments(db: Database.Database): PauseDocuments {
  const stmt = statementCache(db);
  return tableDocuments<PullRequestKey, PauseDoc>(
    db,
    {
      read: ({ repo, number }) => {
        const row = stmt("SELECT paused, paused_by, paused_at, updated_at FROM pr_pauses WHERE repo_key = ? AND number = ?").get(repo, number) as Row | undefined;
        return row && { paused: row.paused === 1, by: row.paused_by, at: row.paused_at, updatedAt: row.updated_at };
      },
      write: ({ repo, number }, doc) => {
        stmt(
          `INSERT INTO pr_pauses (repo_key, number, paused, paused_by, paused_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (repo_key, number) DO UPDATE SET paused = excluded.paused, paused_by = excluded.paused_by,
             paused_at = excluded.paused_at, updated_at = excluded.updated_at`,
        ).run(repo, number, doc.paused ? 1 : 0, doc.by, doc.at, doc.updatedAt);
      },
    },
    { name: "pr_pauses", timeColumn: "updated_at" },
  );
}
