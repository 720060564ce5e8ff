import { Redis } from "ioredis";
import { DEFAULT_REDIS_PREFIX } from "./job-queue.js";

/** What a Redis store of per-pull-request or per-repository documents is made with. */
export interface RedisHashStoreOptions {
  url: string;
  /** The queue's prefix. Default `crewbot`. */
  prefix?: string;
  /** The clock, for tests. */
  now?: () => number;
  /** Days a record is kept after its last write (`CREWBOT_RETENTION_DAYS`); the key expires then. Default 30. */
  retentionDays?: number;
}

/** The connection, prefix, clock and expiry a Redis document store shares with the others. */
export class RedisConnection {
  readonly prefix: string;
  readonly redis: Redis;
  readonly now: () => number;
  readonly keepMs: number;
  private closed: Promise<void> | undefined;

  constructor(name: string, opts: RedisHashStoreOptions) {
    if (!opts.url) throw new TypeError(`${name} needs a url`);
    this.prefix = opts.prefix ?? DEFAULT_REDIS_PREFIX;
    this.now = opts.now ?? Date.now;
    this.keepMs = Math.max(1, Math.round((opts.retentionDays ?? 30) * 86_400_000));
    this.redis = new Redis(opts.url, { lazyConnect: false });
    this.redis.on("error", () => {}); // a lost server shows up as the failing call's error
  }

  async close(): Promise<void> {
    this.closed ??= this.redis.quit().then(
      () => undefined,
      () => this.redis.disconnect(),
    );
    return this.closed;
  }
}
