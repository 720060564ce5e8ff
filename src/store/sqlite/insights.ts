/**
 * The insight events in the queue's SQLite file (table `insight_events`): one row per repository,
 * type and key, found by time. What they mean is `insights/events.ts`.
 */
import type Database from "better-sqlite3";
import { checkEvent, KEEP_FIRST, loadEvent, type InsightEvent, type InsightsStore } from "../../insights/events.js";
import { openDatabase, statementCache } from "./database.js";

export interface SqliteInsightsOptions {
  dataDir: string;
  busyTimeoutMs?: number;
}

export class SqliteInsights implements InsightsStore {
  readonly file: string;
  private readonly db: Database.Database;
  private readonly stmt: (sql: string) => Database.Statement;

  constructor(opts: SqliteInsightsOptions) {
    const { db, file } = openDatabase(opts);
    this.db = db;
    this.file = file;
    this.stmt = statementCache(db);
  }

  async put(repo: string, event: InsightEvent): Promise<boolean> {
    checkEvent(repo, event);
    const verb = KEEP_FIRST.has(event.type) ? "INSERT OR IGNORE" : "INSERT OR REPLACE";
    const sql = `${verb} INTO insight_events (repo_key, repo, type, key, at, event_json) VALUES (?, ?, ?, ?, ?, ?)`;
    return this.stmt(sql).run(repo.toLowerCase(), repo, event.type, event.key, event.at, JSON.stringify(event)).changes > 0;
  }

  async between(repo: string, from: number, to: number): Promise<InsightEvent[]> {
    const rows = this.stmt("SELECT event_json FROM insight_events WHERE repo_key = ? AND at >= ? AND at < ? ORDER BY at, type, key").all(repo.toLowerCase(), from, to) as Array<{ event_json: string }>;
    return rows.flatMap((row) => loadEvent(row.event_json) ?? []);
  }

  async repositories(since: number): Promise<string[]> {
    // SQLite gives a bare column of the row that holds MAX(at): the latest spelling.
    const rows = this.stmt("SELECT repo, MAX(at) AS last FROM insight_events WHERE at >= ? GROUP BY repo_key ORDER BY repo_key").all(since) as Array<{ repo: string }>;
    return rows.map((row) => row.repo);
  }

  async prune(before: number): Promise<number> {
    return this.stmt("DELETE FROM insight_events WHERE at < ?").run(before).changes;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
