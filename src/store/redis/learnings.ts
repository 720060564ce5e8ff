/**
 * Learning candidates and the uses of merged learnings on Redis, per repository under
 * `<prefix>:learn:<owner/repo>:`: `cand` (hash: candidate key → JSON), `seen` (sorted set: key by
 * last seen, for the cap and pruning), `uses` (sorted set: `<learning id>|<job id>` by time),
 * `use` (hash: the same member → its counts) and `last` (hash: learning id → its last use). A
 * sighting merges in JavaScript and writes back only if the candidate did not change meanwhile
 * (compared in a Lua script, which also drops the candidates seen longest ago past the cap).
 * Keys expire after the retention period; `last` after the longest `learnings.staleDays`.
 */
import { checkRepoKey, loadCandidate, MAX_CANDIDATES, withSighting, type StoredCandidate } from "../../learnings/candidates.js";
import { checkUses, LAST_USE_KEPT_MS, type LearningUsage, type PrunableLearningsStore, type SightingResult } from "../../learnings/learnings-store.js";
import type { CandidateSighting, LearningUse } from "../../learnings/types.js";
import { RedisHashStore, type RedisHashStoreOptions } from "./hash-store.js";

export type RedisLearningsOptions = RedisHashStoreOptions;

/**
 * KEYS: cand, seen. ARGV: field, expected JSON ('' when absent), new JSON, last seen ('' leaves the
 * set alone), the cap, ms to keep. 1 when written, 0 when the candidate changed meanwhile.
 */
const WRITE_IF_UNCHANGED = `
local cur = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if cur ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
if ARGV[4] ~= '' then redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1]) end
local max = tonumber(ARGV[5])
while redis.call('ZCARD', KEYS[2]) > max do
  local popped = redis.call('ZPOPMIN', KEYS[2])
  redis.call('HDEL', KEYS[1], popped[1])
end
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('PEXPIRE', KEYS[2], ARGV[6])
return 1
`;

/** KEYS: uses, use, last. ARGV: member, counts JSON, at, learning id, ms to keep, ms to keep the last use. */
const RECORD_USE = `
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
local last = redis.call('HGET', KEYS[3], ARGV[4])
if not last or tonumber(last) < tonumber(ARGV[3]) then redis.call('HSET', KEYS[3], ARGV[4], ARGV[3]) end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
redis.call('PEXPIRE', KEYS[3], ARGV[6])
return 1
`;

const MAX_TRIES = 50;
type Scripted = Record<string, (...args: string[]) => Promise<number>>;

export class RedisLearningsStore extends RedisHashStore implements PrunableLearningsStore {
  constructor(opts: RedisLearningsOptions) {
    super("RedisLearningsStore", opts);
    this.redis.defineCommand("crewbotLearnWrite", { numberOfKeys: 2, lua: WRITE_IF_UNCHANGED });
    this.redis.defineCommand("crewbotLearnUse", { numberOfKeys: 3, lua: RECORD_USE });
  }

  async addSighting(repoKey: string, sighting: CandidateSighting): Promise<SightingResult> {
    const k = this.keys(checkRepoKey(repoKey));
    const field = withSighting(undefined, sighting).candidate.key;
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      const json = (await this.redis.hget(k.cand, field)) ?? "";
      const { candidate, added } = withSighting(loadCandidate(json), sighting);
      if (!added) return { ...candidate, added };
      const written = await this.script("crewbotLearnWrite", k.cand, k.seen, field, json, JSON.stringify(candidate), String(candidate.lastSeen), String(MAX_CANDIDATES), String(this.keepMs));
      if (written === 1) return { ...candidate, added };
    }
    throw new Error(`adding a sighting to ${repoKey} kept racing other writers`);
  }

  async candidates(repoKey: string): Promise<StoredCandidate[]> {
    const all = Object.values(await this.redis.hgetall(this.keys(checkRepoKey(repoKey)).cand));
    const candidates = all.flatMap((json) => loadCandidate(json) ?? []);
    return candidates.sort((a, b) => a.firstSeen - b.firstSeen || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async markProposed(repoKey: string, keys: readonly string[], prUrl: string): Promise<void> {
    const k = this.keys(checkRepoKey(repoKey));
    if (typeof prUrl !== "string" || prUrl === "") throw new TypeError("markProposed needs the pull request's url");
    for (const key of new Set(keys)) {
      for (let tries = 0; ; tries++) {
        if (tries >= MAX_TRIES) throw new Error(`marking ${key} of ${repoKey} proposed kept racing other writers`);
        const json = await this.redis.hget(k.cand, key);
        const candidate = loadCandidate(json);
        if (!candidate) break;
        const written = await this.script("crewbotLearnWrite", k.cand, k.seen, key, json!, JSON.stringify({ ...candidate, proposedIn: prUrl }), "", String(MAX_CANDIDATES), String(this.keepMs));
        if (written === 1) break;
      }
    }
  }

  async recordUses(repoKey: string, uses: readonly LearningUse[]): Promise<void> {
    const k = this.keys(checkRepoKey(repoKey));
    checkUses(uses);
    for (const u of uses) {
      const counts = JSON.stringify({ suppressed: u.suppressed, shaped: u.shaped });
      await this.script("crewbotLearnUse", k.uses, k.use, k.last, `${u.id}|${u.jobId}`, counts, String(u.at), u.id, String(this.keepMs), String(LAST_USE_KEPT_MS));
    }
  }

  async usage(repoKey: string, since: number): Promise<Map<string, LearningUsage>> {
    const k = this.keys(checkRepoKey(repoKey));
    const scored = await this.redis.zrangebyscore(k.uses, since, "+inf", "WITHSCORES");
    const members = scored.filter((_, i) => i % 2 === 0);
    const counts = members.length > 0 ? await this.redis.hmget(k.use, ...members) : [];
    const usage = new Map<string, LearningUsage & { jobs: Set<string> }>();
    members.forEach((member, i) => {
      const bar = member.indexOf("|");
      const [id, jobId, at] = [member.slice(0, bar), member.slice(bar + 1), Number(scored[2 * i + 1])];
      const c = parseCounts(counts[i]);
      const u = usage.get(id) ?? { reviews: 0, suppressed: 0, shaped: 0, lastUsed: at, jobs: new Set<string>() };
      u.jobs.add(jobId);
      usage.set(id, { ...u, reviews: u.jobs.size, suppressed: u.suppressed + c.suppressed, shaped: u.shaped + c.shaped, lastUsed: Math.max(u.lastUsed, at) });
    });
    return new Map([...usage].map(([id, { jobs: _jobs, ...u }]) => [id, u]));
  }

  async lastUses(repoKey: string): Promise<Map<string, number>> {
    const last = await this.redis.hgetall(this.keys(checkRepoKey(repoKey)).last);
    return new Map(Object.entries(last).map(([id, at]) => [id, Number(at)]));
  }

  /** Keys expire by themselves; this also deletes what is older inside them, walking the keys with SCAN. */
  async prune(before: number): Promise<number> {
    let deleted = 0;
    await this.eachKey("seen", async (seen) => {
      const keys = await this.redis.zrangebyscore(seen, "-inf", `(${before}`);
      if (keys.length === 0) return;
      deleted += await this.redis.hdel(seen.replace(/:seen$/, ":cand"), ...keys);
      await this.redis.zremrangebyscore(seen, "-inf", `(${before}`);
    });
    await this.eachKey("uses", async (uses) => {
      const members = await this.redis.zrangebyscore(uses, "-inf", `(${before}`);
      if (members.length === 0) return;
      await this.redis.hdel(uses.replace(/:uses$/, ":use"), ...members);
      deleted += await this.redis.zremrangebyscore(uses, "-inf", `(${before}`);
    });
    const oldest = this.now() - LAST_USE_KEPT_MS;
    await this.eachKey("last", async (last) => {
      const old = Object.entries(await this.redis.hgetall(last)).flatMap(([id, at]) => (Number(at) < oldest ? [id] : []));
      if (old.length > 0) await this.redis.hdel(last, ...old);
    });
    return deleted;
  }

  private async eachKey(kind: string, visit: (key: string) => Promise<void>): Promise<void> {
    let cursor = "0";
    do {
      const [next, keys] = await this.redis.scan(cursor, "MATCH", `${this.prefix}:learn:*:${kind}`, "COUNT", 500);
      cursor = next;
      for (const key of keys) await visit(key);
    } while (cursor !== "0");
  }

  private script(name: string, ...args: string[]): Promise<number> {
    return (this.redis as unknown as Scripted)[name]!.call(this.redis, ...args);
  }

  private keys(repo: string) {
    const base = `${this.prefix}:learn:${repo}`;
    return { cand: `${base}:cand`, seen: `${base}:seen`, uses: `${base}:uses`, use: `${base}:use`, last: `${base}:last` };
  }
}

function parseCounts(json: string | null | undefined): { suppressed: number; shaped: number } {
  try {
    const c = JSON.parse(json ?? "{}") as { suppressed?: unknown; shaped?: unknown };
    return { suppressed: Number(c.suppressed) || 0, shaped: Number(c.shaped) || 0 };
  } catch {
    return { suppressed: 0, shaped: 0 };
  }
}
