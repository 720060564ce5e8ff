/**
 * The ci-fix round counts on Redis, next to the Redis queue: one hash per pull request,
 * `<prefix>:cifix:<owner/repo>#<number>` (rounds, stopped, updatedAt), changed only by Lua scripts
 * so two workers never take the same round. Keys expire after the retention period.
 */
import { Redis } from "ioredis";
import { checkLimit, checkRoundKey, type CiFixRounds, type RoundClaim } from "./ci-fix-rounds.js";
import { DEFAULT_REDIS_PREFIX } from "./redis-queue.js";
import { pruneHashes } from "./redis-prune.js";

export interface RedisCiFixRoundsOptions {
  url: string;
  prefix?: string;
  now?: () => number;
  retentionDays?: number;
}

/** KEYS[1]: the hash. ARGV: limit, now, ms to keep, job id. Returns {1, round} or {0, rounds used, announce 0/1}. */
const CLAIM = `
local used = tonumber(redis.call('HGET', KEYS[1], 'rounds') or '0')
local limit = tonumber(ARGV[1])
if used > 0 and redis.call('HGET', KEYS[1], 'lastJob') == ARGV[4] then return {1, used} end
if used < limit then
  redis.call('HSET', KEYS[1], 'rounds', used + 1, 'stopped', 0, 'updatedAt', ARGV[2], 'lastJob', ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return {1, used + 1}
end
local stopped = redis.call('HGET', KEYS[1], 'stopped')
if stopped == '1' then return {0, used, 0} end
redis.call('HSET', KEYS[1], 'rounds', used, 'stopped', 1, 'updatedAt', ARGV[2])
redis.call('HDEL', KEYS[1], 'lastJob')
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {0, used, 1}
`;

/** KEYS[1]: the hash. ARGV: round, now. One less when `round` is still the last one taken. */
const RELEASE = `
local used = tonumber(redis.call('HGET', KEYS[1], 'rounds') or '0')
if used > 0 and used == tonumber(ARGV[1]) then
  redis.call('HSET', KEYS[1], 'rounds', used - 1, 'updatedAt', ARGV[2])
  redis.call('HDEL', KEYS[1], 'lastJob')
  return 1
end
return 0
`;

type Scripted = Record<string, (...args: string[]) => Promise<unknown>>;

export class RedisCiFixRounds implements CiFixRounds {
  readonly prefix: string;
  private readonly redis: Redis;
  private readonly now: () => number;
  private readonly keepMs: number;
  private closed: Promise<void> | undefined;

  constructor(opts: RedisCiFixRoundsOptions) {
    if (!opts.url) throw new TypeError("RedisCiFixRounds needs a url");
    this.prefix = opts.prefix ?? DEFAULT_REDIS_PREFIX;
    this.now = opts.now ?? Date.now;
    this.keepMs = Math.max(1, Math.round((opts.retentionDays ?? 30) * 86_400_000));
    this.redis = new Redis(opts.url, { lazyConnect: false });
    this.redis.on("error", () => {});
    this.redis.defineCommand("crewbotCiFixClaim", { numberOfKeys: 1, lua: CLAIM });
    this.redis.defineCommand("crewbotCiFixRelease", { numberOfKeys: 1, lua: RELEASE });
  }

  async claim(repoKey: string, number: number, limit: number, jobId: string): Promise<RoundClaim> {
    checkRoundKey(repoKey, number);
    checkLimit(limit, jobId);
    const claim = (this.redis as unknown as Scripted).crewbotCiFixClaim!;
    const [taken, n, announce] = (await claim.call(this.redis, this.key(repoKey, number), String(limit), String(this.now()), String(this.keepMs), jobId)) as number[];
    return taken === 1 ? { kind: "round", round: Number(n) } : { kind: "exhausted", rounds: Number(n), announce: announce === 1 };
  }

  async release(repoKey: string, number: number, round: number): Promise<void> {
    checkRoundKey(repoKey, number);
    const release = (this.redis as unknown as Scripted).crewbotCiFixRelease!;
    await release.call(this.redis, this.key(repoKey, number), String(round), String(this.now()));
  }

  async get(repoKey: string, number: number): Promise<{ rounds: number; stopped: boolean } | undefined> {
    checkRoundKey(repoKey, number);
    const h = await this.redis.hgetall(this.key(repoKey, number));
    if (h.rounds === undefined) return undefined;
    return { rounds: Number(h.rounds), stopped: h.stopped === "1" };
  }

  /** Counts expire by themselves; this deletes old ones all the same, walking the keys with SCAN. */
  async prune(before: number): Promise<number> {
    return pruneHashes(this.redis, `${this.prefix}:cifix:*`, "updatedAt", before);
  }

  async close(): Promise<void> {
    this.closed ??= this.redis.quit().then(
      () => undefined,
      () => this.redis.disconnect(),
    );
    return this.closed;
  }

  private key(repoKey: string, number: number): string {
    return `${this.prefix}:cifix:${repoKey.toLowerCase()}#${number}`;
  }
}
