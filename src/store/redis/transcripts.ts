/**
 * Transcripts on Redis (when `REDIS_URL` is set): a list per job every process can read, expiring
 * `days` after its last entry. `seq` is the entry's position in the list, counted from 1.
 */
import type { StoredEntry, TranscriptEntry, TranscriptStore } from "../../transcripts/types.js";

/** The few ioredis commands used (an ioredis `Redis` fits). */
export interface RedisLike {
  rpush(key: string, ...values: string[]): Promise<number>;
  expire(key: string, seconds: number): Promise<number>;
  lrange(key: string, start: number, stop: number): Promise<string[]>;
  quit(): Promise<unknown>;
}

export class RedisTranscriptStore implements TranscriptStore {
  private readonly prefix: string;
  private readonly ttlSeconds: number;
  private readonly owns: boolean;

  constructor(
    private readonly redis: RedisLike,
    options: { days: number; prefix?: string; ownsConnection?: boolean },
  ) {
    this.prefix = options.prefix ?? "crewbot:transcript:";
    this.ttlSeconds = Math.max(1, Math.round(options.days * 86_400));
    this.owns = options.ownsConnection ?? true;
  }

  private key(jobId: string): string {
    return `${this.prefix}${jobId}`;
  }

  async append(jobId: string, entries: TranscriptEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const key = this.key(jobId);
    await this.redis.rpush(key, ...entries.map((e) => JSON.stringify(e)));
    await this.redis.expire(key, this.ttlSeconds);
  }

  async read(jobId: string, after = 0): Promise<StoredEntry[]> {
    const start = Math.max(0, Math.floor(after));
    const values = await this.redis.lrange(this.key(jobId), start, -1);
    return values.map((v, i) => ({ ...(JSON.parse(v) as TranscriptEntry), seq: start + i + 1 }));
  }

  /** Redis expires the lists itself. */
  async prune(): Promise<string[]> {
    return [];
  }

  async close(): Promise<void> {
    if (this.owns) await this.redis.quit().catch(() => undefined);
  }
}
