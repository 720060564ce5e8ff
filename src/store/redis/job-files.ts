/**
 * Job files on Redis (transcripts/job-files.ts says which and how big): per job an index hash
 * `<prefix>:jobfiles:<job id>:index` (`/<name>` → version, `updatedAt`) and a data hash
 * `<prefix>:jobfiles:<job id>:data` (name → bytes), both expiring the retention period after the
 * job's last file was written.
 */
import type { Redis } from "ioredis";
import { Redis as RedisClient } from "ioredis";
import type { JobFileStore, SharedFileInfo } from "../../transcripts/job-files.js";

export interface RedisJobFilesOptions {
  url: string;
  prefix: string;
  /** Days a job's files are kept after its last write (`CREWBOT_RETENTION_DAYS`). Default 30. */
  retentionDays?: number;
}

export class RedisJobFiles implements JobFileStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly keepMs: number;
  private closed: Promise<void> | undefined;

  constructor(opts: RedisJobFilesOptions) {
    this.prefix = opts.prefix;
    this.keepMs = Math.max(1, Math.round((opts.retentionDays ?? 30) * 86_400_000));
    this.redis = new RedisClient(opts.url, { lazyConnect: false });
    this.redis.on("error", () => {}); // a lost server shows up as the failing call's error
  }

  private keys(jobId: string): { index: string; data: string } {
    const base = `${this.prefix}:jobfiles:${jobId}`;
    return { index: `${base}:index`, data: `${base}:data` };
  }

  async put(jobId: string, name: string, content: Buffer, version: string): Promise<void> {
    const { index, data } = this.keys(jobId);
    await this.redis
      .multi()
      .hset(data, name, content)
      .hset(index, `/${name}`, version, "updatedAt", String(Date.now()))
      .pexpire(data, this.keepMs)
      .pexpire(index, this.keepMs)
      .exec();
  }

  async list(jobId: string): Promise<SharedFileInfo[]> {
    const fields = await this.redis.hgetall(this.keys(jobId).index);
    return Object.entries(fields)
      .filter(([field]) => field.startsWith("/"))
      .map(([field, version]) => ({ name: field.slice(1), version }));
  }

  async get(jobId: string, name: string): Promise<Buffer | undefined> {
    return (await this.redis.hgetBuffer(this.keys(jobId).data, name)) ?? undefined;
  }

  /** The keys expire by themselves; this deletes older ones all the same, walking the indexes with SCAN. */
  async prune(before: number): Promise<number> {
    let deleted = 0;
    let cursor = "0";
    do {
      const [next, keys] = await this.redis.scan(cursor, "MATCH", `${this.prefix}:jobfiles:*:index`, "COUNT", 500);
      cursor = next;
      for (const index of keys) {
        const at = Number(await this.redis.hget(index, "updatedAt"));
        if (!Number.isFinite(at) || at >= before) continue;
        await this.redis.del(index, `${index.slice(0, -":index".length)}:data`);
        deleted += 1;
      }
    } while (cursor !== "0");
    return deleted;
  }

  async close(): Promise<void> {
    this.closed ??= this.redis.quit().then(
      () => undefined,
      () => this.redis.disconnect(),
    );
    return this.closed;
  }
}
