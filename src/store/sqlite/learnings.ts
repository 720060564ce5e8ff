/**
 * Learning candidates and the uses of merged learnings in the queue's SQLite file (tables
 * `learning_candidates`, `learning_uses`, `learning_last_use`). A sighting is one immediate
 * transaction: read the candidate, merge (`withSighting`), write it, and drop the candidate seen
 * longest ago when the repository holds more than `MAX_CANDIDATES`.
 */
import type Database from "better-sqlite3";
import { checkRepoKey, loadCandidate, MAX_CANDIDATES, withSighting, type StoredCandidate } from "../../learnings/candidates.js";
import { checkUses, LAST_USE_KEPT_MS, type LearningUsage, type PrunableLearningsStore, type SightingResult } from "../../learnings/learnings-store.js";
import type { CandidateSighting, LearningUse } from "../../learnings/types.js";
import { openDatabase, statementCache } from "./database.js";

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

export class SqliteLearningsStore implements PrunableLearningsStore {
  readonly file: string;
  private readonly db: Database.Database;
  private readonly now: () => number;
  private readonly stmt: (sql: string) => Database.Statement;

  constructor(opts: SqliteLearningsOptions) {
    this.now = opts.now ?? Date.now;
    ({ db: this.db, file: this.file } = openDatabase(opts));
    this.stmt = statementCache(this.db);
  }

  async addSighting(repoKey: string, sighting: CandidateSighting): Promise<SightingResult> {
    const repo = checkRepoKey(repoKey);
    return this.db
      .transaction((): SightingResult => {
        const probe = withSighting(undefined, sighting).candidate.key;
        const row = this.stmt("SELECT candidate_json FROM learning_candidates WHERE repo_key = ? AND key = ?").get(repo, probe) as { candidate_json: string } | undefined;
        const { candidate, added } = withSighting(loadCandidate(row?.candidate_json), sighting);
        if (!added) return { ...candidate, added };
        this.stmt(
          `INSERT INTO learning_candidates (repo_key, key, candidate_json, first_seen, last_seen) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (repo_key, key) DO UPDATE SET candidate_json = excluded.candidate_json, first_seen = excluded.first_seen, last_seen = excluded.last_seen`,
        ).run(repo, candidate.key, JSON.stringify(candidate), candidate.firstSeen, candidate.lastSeen);
        this.stmt(
          `DELETE FROM learning_candidates WHERE repo_key = ? AND key IN (
             SELECT key FROM learning_candidates WHERE repo_key = ? ORDER BY last_seen DESC, key DESC LIMIT -1 OFFSET ?)`,
        ).run(repo, repo, MAX_CANDIDATES);
        return { ...candidate, added };
      })
      .immediate();
  }

  async candidates(repoKey: string): Promise<StoredCandidate[]> {
    const rows = this.stmt("SELECT candidate_json FROM learning_candidates WHERE repo_key = ? ORDER BY first_seen, key").all(checkRepoKey(repoKey)) as Array<{ candidate_json: string }>;
    return rows.flatMap((r) => loadCandidate(r.candidate_json) ?? []);
  }

  async markProposed(repoKey: string, keys: readonly string[], prUrl: string): Promise<void> {
    const repo = checkRepoKey(repoKey);
    if (typeof prUrl !== "string" || prUrl === "") throw new TypeError("markProposed needs the pull request's url");
    this.db
      .transaction(() => {
        for (const key of new Set(keys)) {
          const row = this.stmt("SELECT candidate_json FROM learning_candidates WHERE repo_key = ? AND key = ?").get(repo, key) as { candidate_json: string } | undefined;
          const candidate = loadCandidate(row?.candidate_json);
          if (!candidate) continue;
          this.stmt("UPDATE learning_candidates SET candidate_json = ? WHERE repo_key = ? AND key = ?").run(JSON.stringify({ ...candidate, proposedIn: prUrl }), repo, key);
        }
      })
      .immediate();
  }

  async recordUses(repoKey: string, uses: readonly LearningUse[]): Promise<void> {
    const repo = checkRepoKey(repoKey);
    checkUses(uses);
    this.db
      .transaction(() => {
        for (const u of uses) {
          this.stmt(
            `INSERT INTO learning_uses (repo_key, learning_id, job_id, at, suppressed, shaped) VALUES (?, ?, ?, ?, ?, ?)
             ON CONFLICT (repo_key, learning_id, job_id) DO UPDATE SET at = excluded.at, suppressed = excluded.suppressed, shaped = excluded.shaped`,
          ).run(repo, u.id, u.jobId, u.at, u.suppressed, u.shaped);
          this.stmt(
            `INSERT INTO learning_last_use (repo_key, learning_id, at) VALUES (?, ?, ?)
             ON CONFLICT (repo_key, learning_id) DO UPDATE SET at = MAX(at, excluded.at)`,
          ).run(repo, u.id, u.at);
        }
      })
      .immediate();
  }

  async usage(repoKey: string, since: number): Promise<Map<string, LearningUsage>> {
    const rows = this.stmt(
      `SELECT learning_id, COUNT(DISTINCT job_id) AS reviews, SUM(suppressed) AS suppressed, SUM(shaped) AS shaped, MAX(at) AS last_used
       FROM learning_uses WHERE repo_key = ? AND at >= ? GROUP BY learning_id`,
    ).all(checkRepoKey(repoKey), since) as UsageRow[];
    return new Map(rows.map((r) => [r.learning_id, { reviews: r.reviews, suppressed: r.suppressed, shaped: r.shaped, lastUsed: r.last_used }]));
  }

  async lastUses(repoKey: string): Promise<Map<string, number>> {
    const rows = this.stmt("SELECT learning_id, at FROM learning_last_use WHERE repo_key = ?").all(checkRepoKey(repoKey)) as Array<{ learning_id: string; at: number }>;
    return new Map(rows.map((r) => [r.learning_id, r.at]));
  }

  /** Candidates last seen and uses made before `before`; a learning's last use only after `LAST_USE_KEPT_MS`. */
  async prune(before: number): Promise<number> {
    return this.db
      .transaction(() => {
        const candidates = this.stmt("DELETE FROM learning_candidates WHERE last_seen < ?").run(before).changes;
        const uses = this.stmt("DELETE FROM learning_uses WHERE at < ?").run(before).changes;
        this.stmt("DELETE FROM learning_last_use WHERE at < ?").run(this.now() - LAST_USE_KEPT_MS);
        return candidates + uses;
      })
      .immediate();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
