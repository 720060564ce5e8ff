/**
 * The ci-fix round counts on Redis, next to the Redis queue: one hash per pull request,
 * `<prefix>:cifix:<owner/repo>#<number>` (rounds, stopped, updatedAt, lastJob, lastHead), changed only by Lua scripts
 * so two workers never take the same round. Keys expire after the retention period.
 */
import { checkLimit, checkRoundKey, type CiFixRounds, type RoundClaim } from "../../jobs/ci-fix-rounds.js";
import { pruneHashes } from "./prune.js";
import { RedisHashStore, type RedisHashStoreOptions } from "./hash-store.js";

export type RedisCiFixRoundsOptions = RedisHashStoreOptions;

/**
 * KEYS[1]: the hash. ARGV: limit, now, ms to keep, job id, head sha. Returns {1, round},
 * {2, round} (the head's round is another job's) or {0, rounds used, announce 0/1}.
 */
const CLAIM = `
local used = tonumber(redis.call('HGET', KEYS[1], 'rounds') or '0')
local limit = tonumber(ARGV[1])
if used > 0 and redis.call('HGET', KEYS[1], 'lastJob') == ARGV[4] then return {1, used} end
if used > 0 and redis.call('HGET', KEYS[1], 'lastHead') == ARGV[5] then return {2, used} end
if used < limit then
  redis.call('HSET', KEYS[1], 'rounds', used + 1, 'stopped', 0, 'updatedAt', ARGV[2], 'lastJob', ARGV[4], 'lastHead', ARGV[5])
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

/** KEYS[1]: the hash. ARGV: round, now. One less (and its head free again) when `round` is still the last one taken. */
const RELEASE = `
local used = tonumber(redis.call('HGET', KEYS[1], 'rounds') or '0')
if used > 0 and used == tonumber(ARGV[1]) then
  redis.call('HSET', KEYS[1], 'rounds', used - 1, 'updatedAt', ARGV[2])
  redis.call('HDEL', KEYS[1], 'lastJob', 'lastHead')
  return 1
end
return 0
`;

type Scripted = Record<string, (...args: string[]) => Promise<unknown>>;

export class RedisCiFixRounds extends RedisHashStore implements CiFixRounds {
  constructor(opts: RedisCiFixRoundsOptions) {
    super("RedisCiFixRounds", opts);
    this.redis.defineCommand("crewbotCiFixClaim", { numberOfKeys: 1, lua: CLAIM });
    this.redis.defineCommand("crewbotCiFixRelease", { numberOfKeys: 1, lua: RELEASE });
  }

  async claim(repoKey: string, number: number, limit: number, jobId: string, headSha: string): Promise<RoundClaim> {
    checkRoundKey(repoKey, number);
    checkLimit(limit, jobId, headSha);
    const claim = (this.redis as unknown as Scripted).crewbotCiFixClaim!;
    const [answer, n, announce] = (await claim.call(this.redis, this.key(repoKey, number), String(limit), String(this.now()), String(this.keepMs), jobId, headSha)) as number[];
    if (answer === 1) return { kind: "round", round: Number(n) };
    if (answer === 2) return { kind: "taken", round: Number(n) };
    return { kind: "exhausted", rounds: Number(n), announce: announce === 1 };
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

  private key(repoKey: string, number: number): string {
    return `${this.prefix}:cifix:${repoKey.toLowerCase()}#${number}`;
  }
}
