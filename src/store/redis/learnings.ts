/**
 * Learning candidates and the uses of merged learnings on Redis, per repository under
 * `<prefix>:learn:<owner/repo>:`: `cand` (hash: candidate key → JSON), `seen` (sorted set: key by
 * last seen, for the cap and pruning), `uses` (sorted set: `<learning id>|<job id>` by time),
 * `use` (hash: the same member → its counts) and `last` (hash: learning id → its last use). The
 * merges are `learnings-documents.ts`, applied by compare-and-swap; this file says where each
 * document lives, drops the candidates seen longest ago past the cap in the same write, and answers
 * the reads over many. Keys expire after the retention period; `last` after the longest `learnings.staleDays`.
 */
import type { Redis } from "ioredis";
import { loadCandidate, MAX_CANDIDATES, type StoredCandidate } from "../../learnings/candidates.js";
import { LAST_USE_KEPT_MS, type LearningUsage } from "../../learnings/learnings-store.js";
import type { LearningUse } from "../../learnings/types.js";
import { LearningsDocumentStore, type CandidateKey, type LearningKey, type LearningsBackend } from "../learnings-documents.js";
import { RedisConnection, type RedisHashStoreOptions } from "./redis-connection.js";
import { inTurn, RedisDocuments } from "./redis-documents.js";

export type RedisLearningsOptions = RedisHashStoreOptions;

type Keys = ReturnType<typeof repoKeys>;

export class RedisLearningsStore extends LearningsDocumentStore {
  constructor(opts: RedisLearningsOptions) {
    const conn = new RedisConnection("RedisLearningsStore", opts);
    super(new RedisLearnings(conn));
  }
}

/** The backend: the documents, and the reads over many of them. */
class RedisLearnings implements LearningsBackend {
  readonly candidates: RedisDocuments<CandidateKey, StoredCandidate>;
  readonly lastUse: RedisDocuments<LearningKey, number>;
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly keepMs: number;
  private readonly now: () => number;

  constructor(private readonly conn: RedisConnection) {
    ({ redis: this.redis, prefix: this.prefix, keepMs: this.keepMs, now: this.now } = conn);
    const keepMs = this.keepMs;
    this.candidates = new RedisDocuments<CandidateKey, StoredCandidate>(
      this.redis,
      {
        watched: ({ repo }) => [this.keys(repo).cand, this.keys(repo).seen],
        read: async (r, { repo, key }) => loadCandidate(await r.hget(this.keys(repo).cand, key)),
        write: async (tx, { repo, key }, candidate, r) => {
          const k = this.keys(repo);
          tx.hset(k.cand, key, JSON.stringify(candidate));
          tx.zadd(k.seen, candidate.lastSeen, key);
          const dropped = await overflow(r, k.seen, key, candidate.lastSeen);
          if (dropped.length > 0) {
            tx.hdel(k.cand, ...dropped);
            tx.zrem(k.seen, ...dropped);
          }
          tx.pexpire(k.cand, keepMs);
          tx.pexpire(k.seen, keepMs);
        },
      },
      ({ repo, key }) => `the candidate ${key} of ${repo}`,
    );
    this.lastUse = new RedisDocuments<LearningKey, number>(
      this.redis,
      {
        watched: ({ repo }) => [this.keys(repo).last],
        read: async (r, { repo, id }) => {
          const at = await r.hget(this.keys(repo).last, id);
          return at === null ? undefined : Number(at);
        },
        write: (tx, { repo, id }, at) => {
          tx.hset(this.keys(repo).last, id, String(at));
          tx.pexpire(this.keys(repo).last, LAST_USE_KEPT_MS);
        },
      },
      ({ repo, id }) => `the last use of ${id} in ${repo}`,
    );
  }

  async addUse(repo: string, u: LearningUse): Promise<void> {
    const k = this.keys(repo);
    const member = `${u.id}|${u.jobId}`;
    // In the connection's turn: this EXEC must not land inside a document update's WATCH.
    const replies = await inTurn(this.redis, () =>
      this.redis
        .multi()
        .zadd(k.uses, u.at, member)
        .hset(k.use, member, JSON.stringify({ suppressed: u.suppressed, shaped: u.shaped }))
        .pexpire(k.uses, this.keepMs)
        .pexpire(k.use, this.keepMs)
        .exec(),
    );
    const failed = replies?.find(([err]) => err);
    if (replies === null || failed) throw failed?.[0] ?? new Error(`recording a use of ${u.id} in ${repo} was refused`);
  }

  close(): Promise<void> {
    return this.conn.close();
  }

  async listCandidates(repo: string): Promise<StoredCandidate[]> {
    const all = Object.values(await this.redis.hgetall(this.keys(repo).cand));
    const candidates = all.flatMap((json) => loadCandidate(json) ?? []);
    return candidates.sort((a, b) => a.firstSeen - b.firstSeen || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async usage(repo: string, since: number): Promise<Map<string, LearningUsage>> {
    const k = this.keys(repo);
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

  async lastUses(repo: string): Promise<Map<string, number>> {
    const last = await this.redis.hgetall(this.keys(repo).last);
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

  private keys(repo: string): Keys {
    return repoKeys(this.prefix, repo);
  }
}

function repoKeys(prefix: string, repo: string) {
  const base = `${prefix}:learn:${repo}`;
  return { cand: `${base}:cand`, seen: `${base}:seen`, uses: `${base}:uses`, use: `${base}:use`, last: `${base}:last` };
}

/**
 * The candidates a write of `key` (last seen `lastSeen`) pushes past `MAX_CANDIDATES`: those seen
 * longest ago, the lower key first on a tie — the order SQLite drops them in, and ZPOPMIN's.
 */
async function overflow(redis: Redis, seen: string, key: string, lastSeen: number): Promise<string[]> {
  const isNew = (await redis.zscore(seen, key)) === null;
  const over = (await redis.zcard(seen)) + (isNew ? 1 : 0) - MAX_CANDIDATES;
  if (over <= 0) return [];
  const lowest = await redis.zrange(seen, 0, over, "WITHSCORES");
  const entries: Array<[string, number]> = [[key, lastSeen]];
  for (let i = 0; i < lowest.length; i += 2) if (lowest[i] !== key) entries.push([lowest[i]!, Number(lowest[i + 1])]);
  entries.sort(([a, x], [b, y]) => x - y || (a < b ? -1 : a > b ? 1 : 0));
  return entries.slice(0, over).map(([member]) => member);
}

function parseCounts(json: string | null | undefined): { suppressed: number; shaped: number } {
  try {
    const c = JSON.parse(json ?? "{}") as { suppressed?: unknown; shaped?: unknown };
    return { suppressed: Number(c.suppressed) || 0, shaped: Number(c.shaped) || 0 };
  } catch {
    return { suppressed: 0, shaped: 0 };
  }
}
