/** The ci-fix round counts in the queue's SQLite file (table `ci_fix_rounds`, with the head the last round took), each claim one immediate transaction. */
import type Database from "better-sqlite3";
import { checkLimit, checkRoundKey, type CiFixRounds, type RoundClaim } from "../../jobs/ci-fix-rounds.js";
import { openDatabase, statementCache } from "./database.js";

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
}

export class SqliteCiFixRounds implements CiFixRounds {
  readonly file: string;
  private readonly db: Database.Database;
  private readonly now: () => number;
  private readonly stmt: (sql: string) => Database.Statement;

  constructor(opts: SqliteCiFixRoundsOptions) {
    this.now = opts.now ?? Date.now;
    ({ db: this.db, file: this.file } = openDatabase(opts));
    this.stmt = statementCache(this.db);
  }

  async claim(repoKey: string, number: number, limit: number, jobId: string, headSha: string): Promise<RoundClaim> {
    checkRoundKey(repoKey, number);
    checkLimit(limit, jobId, headSha);
    const key = repoKey.toLowerCase();
    return this.db
      .transaction((): RoundClaim => {
        const row = this.read(key, number);
        const used = row?.rounds ?? 0;
        if (row?.last_job === jobId && used > 0) return { kind: "round", round: used };
        if (row?.last_head === headSha && used > 0) return { kind: "taken", round: used };
        if (used < limit) {
          this.write(key, number, used + 1, 0, jobId, headSha);
          return { kind: "round", round: used + 1 };
        }
        const announce = !row?.stopped;
        if (announce) this.write(key, number, used, 1, null, row?.last_head ?? null);
        return { kind: "exhausted", rounds: used, announce };
      })
      .immediate();
  }

  async release(repoKey: string, number: number, round: number): Promise<void> {
    checkRoundKey(repoKey, number);
    this.stmt("UPDATE ci_fix_rounds SET rounds = rounds - 1, last_job = NULL, last_head = NULL, updated_at = ? WHERE repo_key = ? AND number = ? AND rounds = ? AND rounds > 0").run(
      this.now(),
      repoKey.toLowerCase(),
      number,
      round,
    );
  }

  async get(repoKey: string, number: number): Promise<{ rounds: number; stopped: boolean } | undefined> {
    checkRoundKey(repoKey, number);
    const row = this.read(repoKey.toLowerCase(), number);
    return row && { rounds: row.rounds, stopped: row.stopped === 1 };
  }

  async prune(before: number): Promise<number> {
    return this.stmt("DELETE FROM ci_fix_rounds WHERE updated_at < ?").run(before).changes;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  private read(key: string, number: number): Row | undefined {
    return this.stmt("SELECT rounds, stopped, last_job, last_head FROM ci_fix_rounds WHERE repo_key = ? AND number = ?").get(key, number) as Row | undefined;
  }

  private write(key: string, number: number, rounds: number, stopped: number, lastJob: string | null, lastHead: string | null): void {
    this.stmt(
      `INSERT INTO ci_fix_rounds (repo_key, number, rounds, stopped, last_job, last_head, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (repo_key, number) DO UPDATE SET rounds = excluded.rounds, stopped = excluded.stopped,
         last_job = excluded.last_job, last_head = excluded.last_head, updated_at = excluded.updated_at`,
    ).run(key, number, rounds, stopped, lastJob, lastHead, this.now());
  }
}
