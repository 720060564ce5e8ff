/**
 * Installations and job usage on Redis, for workers on several machines: a hash per
 * installation, and per installation a sorted set of job starts (score: start time), one per
 * repository of its jobs' starts, and a hash of job costs. Entries older than 40 days are trimmed
 * as new ones arrive (a repository's as its own jobs arrive).
 */
import { Redis } from "ioredis";
import { storedRefs, type StoredRepository } from "../stored-repositories.js";
import type { InstallationRecord, InstallationStore, UsageLedger } from "../../installations/types.js";

const KEEP_MS = 40 * 24 * 3_600_000;

export class RedisInstallations implements InstallationStore, UsageLedger {
  private readonly redis: Redis;

  constructor(opts: { url: string; prefix?: string }, private readonly prefix = opts.prefix ?? "crewbot") {
    this.redis = new Redis(opts.url, { maxRetriesPerRequest: 3, lazyConnect: false });
  }

  private key(...parts: Array<string | number>): string {
    return [this.prefix, ...parts].join(":");
  }

  async get(id: number): Promise<InstallationRecord | undefined> {
    const raw = await this.redis.get(this.key("installation", id));
    if (!raw) return undefined;
    const record = JSON.parse(raw) as Omit<InstallationRecord, "repositories" | "removedRepositories"> & { repositories: StoredRepository[]; removedRepositories?: StoredRepository[] };
    const { removedRepositories, ...rest } = record;
    return { ...rest, repositories: storedRefs(record.repositories), ...(removedRepositories ? { removedRepositories: storedRefs(removedRepositories) } : {}) };
  }

  async put(record: InstallationRecord): Promise<void> {
    const before = await this.get(record.id);
    const installedBy = record.installedBy ?? before?.installedBy;
    await this.redis.set(this.key("installation", record.id), JSON.stringify({ ...record, ...(installedBy ? { installedBy } : {}) }));
  }

  async recordStart(installationId: number, jobId: string, at: number, repo?: string): Promise<void> {
    const tx = this.redis.multi().zadd(this.key("usage", installationId, "starts"), "NX", at, jobId);
    if (repo !== undefined) tx.zadd(this.repoStarts(installationId, repo), "NX", at, jobId).pexpire(this.repoStarts(installationId, repo), KEEP_MS);
    await tx.exec();
    await this.trim(installationId, at, repo);
  }

  async recordCost(installationId: number, jobId: string, usd: number, repo?: string): Promise<void> {
    const now = Date.now();
    const tx = this.redis
      .multi()
      .zadd(this.key("usage", installationId, "starts"), "NX", now, jobId)
      .hset(this.key("usage", installationId, "cost"), jobId, String(usd));
    if (repo !== undefined) tx.zadd(this.repoStarts(installationId, repo), "NX", now, jobId).pexpire(this.repoStarts(installationId, repo), KEEP_MS);
    await tx.exec();
    await this.trim(installationId, now, repo);
  }

  /** A repository's job starts (score: start time); their costs are the installation's hash's. It expires KEEP_MS after its last job. */
  private repoStarts(installationId: number, repo: string): string {
    return this.key("usage", installationId, "repo", repo);
  }

  /** Starts and costs older than KEEP_MS go together, so neither grows without bound. */
  private async trim(installationId: number, now: number, repo?: string): Promise<void> {
    if (repo !== undefined) await this.redis.zremrangebyscore(this.repoStarts(installationId, repo), "-inf", now - KEEP_MS);
    const starts = this.key("usage", installationId, "starts");
    const old = await this.redis.zrangebyscore(starts, "-inf", now - KEEP_MS);
    if (old.length === 0) return;
    await this.redis.multi().zrem(starts, ...old).hdel(this.key("usage", installationId, "cost"), ...old).exec();
  }

  async jobsSince(installationId: number, since: number): Promise<number> {
    return this.redis.zcount(this.key("usage", installationId, "starts"), since, "+inf");
  }

  async costSince(installationId: number, since: number, repo?: string): Promise<number> {
    const starts = repo === undefined ? this.key("usage", installationId, "starts") : this.repoStarts(installationId, repo);
    const jobs = await this.redis.zrangebyscore(starts, since, "+inf");
    if (jobs.length === 0) return 0;
    const costs = await this.redis.hmget(this.key("usage", installationId, "cost"), ...jobs);
    return costs.reduce((sum, c) => sum + (c ? Number(c) : 0), 0);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
