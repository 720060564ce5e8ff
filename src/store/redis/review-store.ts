/**
 * The review store on Redis, next to the Redis queue: one hash per pull request,
 * `<prefix>:review:<owner/repo>#<number>` (headSha, fingerprints JSON, findings JSON — absent on hashes
 * written before findings were kept —, reviewedAt, version). A record
 * merges with `mergeFingerprints` and writes back only if no other process wrote in between (the
 * version, compared in a Lua script); otherwise it reads again and retries.
 */
import { checkRecord, loadFindings, mergeFindings, mergeFingerprints, type FindingsUpdate, type ReviewState, type ReviewStore } from "../../review/review-store.js";
import { pruneHashes } from "./prune.js";
import { RedisHashStore, type RedisHashStoreOptions } from "./hash-store.js";

export type RedisReviewStoreOptions = RedisHashStoreOptions;

/**
 * KEYS[1]: the hash. ARGV: expected version, head sha, fingerprints JSON, now, ms to keep it, findings JSON. 1 when
 * written, 0 when it changed meanwhile. Each write pushes the key's expiry out again.
 */
const WRITE_IF_UNCHANGED = `
local v = redis.call('HGET', KEYS[1], 'version') or '0'
if v ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'headSha', ARGV[2], 'fingerprints', ARGV[3], 'findings', ARGV[6], 'reviewedAt', ARGV[4],
  'version', string.format('%d', tonumber(v) + 1))
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
`;

const MAX_TRIES = 50;

export class RedisReviewStore extends RedisHashStore implements ReviewStore {
  constructor(opts: RedisReviewStoreOptions) {
    super("RedisReviewStore", opts);
    this.redis.defineCommand("crewbotReviewWrite", { numberOfKeys: 1, lua: WRITE_IF_UNCHANGED });
  }

  async get(repoKey: string, number: number): Promise<ReviewState | undefined> {
    checkKey(repoKey, number);
    const h = await this.redis.hgetall(this.key(repoKey, number));
    if (!h.headSha) return undefined;
    return { headSha: h.headSha, fingerprints: JSON.parse(h.fingerprints ?? "[]"), findings: loadFindings(h.findings), reviewedAt: Number(h.reviewedAt) };
  }

  async record(repoKey: string, number: number, headSha: string, newFingerprints: string[], findings?: FindingsUpdate): Promise<void> {
    checkKey(repoKey, number);
    checkRecord(headSha, newFingerprints, findings);
    const key = this.key(repoKey, number);
    const write = (this.redis as unknown as Record<string, (...a: string[]) => Promise<number>>).crewbotReviewWrite!;
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      const h = await this.redis.hgetall(key);
      const kept: string[] = h.fingerprints ? JSON.parse(h.fingerprints) : [];
      const merged = JSON.stringify(mergeFingerprints(kept, newFingerprints));
      const found = JSON.stringify(mergeFindings(loadFindings(h.findings), findings));
      const written = await write.call(this.redis, key, h.version ?? "0", headSha, merged, String(this.now()), String(this.keepMs), found);
      if (written === 1) return;
    }
    throw new Error(`recording the review of ${repoKey}#${number} kept racing other writers`);
  }

  /**
   * Records expire by themselves; this also deletes old ones written before expiries were set,
   * walking the review keys with SCAN (never KEYS, which would block the server).
   */
  async prune(before: number): Promise<number> {
    return pruneHashes(this.redis, `${this.prefix}:review:*`, "reviewedAt", before);
  }

  private key(repoKey: string, number: number): string {
    return `${this.prefix}:review:${repoKey.toLowerCase()}#${number}`;
  }
}

function checkKey(repoKey: string, number: number): void {
  if (typeof repoKey !== "string" || !/^[^/\s]+\/[^/\s]+$/.test(repoKey)) throw new TypeError("repoKey must be owner/repo");
  if (!Number.isSafeInteger(number) || number < 1) throw new TypeError("a pull request number must be a positive integer");
}
