/** Installations and job usage (per installation and repository) in the embedded SQLite file (tables `installations`, `job_usage`). */
import type Database from "better-sqlite3";
import { openDatabase, statementCache } from "./database.js";
import { storedRefs, type StoredRepository } from "../stored-repositories.js";
import type { InstallationRecord, InstallationStore, UsageLedger } from "../../installations/types.js";

interface Row {
  id: number;
  account: string;
  installed_by: string | null;
  state: InstallationRecord["state"];
  repositories_json: string;
  all_repositories: number;
  updated_at: number;
}

export class SqliteInstallations implements InstallationStore, UsageLedger {
  private readonly db: Database.Database;
  private readonly stmt: (sql: string) => Database.Statement;

  constructor(opts: { dataDir: string }) {
    ({ db: this.db } = openDatabase(opts));
    this.stmt = statementCache(this.db);
  }

  async get(id: number): Promise<InstallationRecord | undefined> {
    const row = this.stmt("SELECT * FROM installations WHERE id = ?").get(id) as Row | undefined;
    if (!row) return undefined;
    const record: InstallationRecord = {
      id: row.id,
      account: row.account,
      state: row.state,
      ...repositoriesFrom(row.repositories_json),
      allRepositories: row.all_repositories === 1,
      updatedAt: row.updated_at,
    };
    if (row.installed_by !== null) record.installedBy = row.installed_by;
    return record;
  }

  async put(r: InstallationRecord): Promise<void> {
    this.stmt(
      `INSERT INTO installations (id, account, installed_by, state, repositories_json, all_repositories, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET account = excluded.account, installed_by = COALESCE(excluded.installed_by, installed_by),
         state = excluded.state, repositories_json = excluded.repositories_json, all_repositories = excluded.all_repositories,
         updated_at = excluded.updated_at`,
    ).run(r.id, r.account, r.installedBy ?? null, r.state, repositoriesJson(r), r.allRepositories ? 1 : 0, r.updatedAt);
  }

  async recordStart(installationId: number, jobId: string, at: number, repo?: string): Promise<void> {
    // A job that starts again (a restart before its agents ran) counts once.
    this.stmt("INSERT OR IGNORE INTO job_usage (job_id, installation_id, started_at, repo_key) VALUES (?, ?, ?, ?)").run(jobId, installationId, at, repo ?? null);
  }

  async recordCost(installationId: number, jobId: string, usd: number, repo?: string): Promise<void> {
    this.stmt(
      `INSERT INTO job_usage (job_id, installation_id, started_at, cost_usd, repo_key) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (job_id) DO UPDATE SET cost_usd = excluded.cost_usd, repo_key = COALESCE(repo_key, excluded.repo_key)`,
    ).run(jobId, installationId, Date.now(), usd, repo ?? null);
  }

  async jobsSince(installationId: number, since: number): Promise<number> {
    return (this.stmt("SELECT COUNT(*) AS n FROM job_usage WHERE installation_id = ? AND started_at >= ?").get(installationId, since) as { n: number }).n;
  }

  async costSince(installationId: number, since: number, repo?: string): Promise<number> {
    const row = (
      repo === undefined
        ? this.stmt("SELECT COALESCE(SUM(cost_usd), 0) AS usd FROM job_usage WHERE installation_id = ? AND started_at >= ?").get(installationId, since)
        : this.stmt("SELECT COALESCE(SUM(cost_usd), 0) AS usd FROM job_usage WHERE repo_key = ? AND installation_id = ? AND started_at >= ?").get(repo, installationId, since)
    ) as { usd: number };
    return row.usd;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

/** `repositories_json`: the list, or `{selected, removed}` once a repository was removed (no new column). */
function repositoriesJson(r: InstallationRecord): string {
  const removed = r.removedRepositories ?? [];
  return JSON.stringify(removed.length > 0 ? { selected: r.repositories, removed } : r.repositories);
}

function repositoriesFrom(json: string): Pick<InstallationRecord, "repositories" | "removedRepositories"> {
  const value = JSON.parse(json) as StoredRepository[] | { selected: StoredRepository[]; removed: StoredRepository[] };
  if (Array.isArray(value)) return { repositories: storedRefs(value) };
  const removed = storedRefs(value.removed);
  return { repositories: storedRefs(value.selected), ...(removed.length > 0 ? { removedRepositories: removed } : {}) };
}
