/**
 * The insight events on Redis, next to the Redis queue. Per repository (`owner/repo`, lower-cased):
 * `<prefix>:insights:events:<repo>` (a hash, `<type>:<key>` → the event's JSON) and
 * `<prefix>:insights:at:<repo>` (a sorted set of the same fields by time); across repositories
 * `<prefix>:insights:repos` (each repository by its latest time) and `<prefix>:insights:names`
 * (its spelling). What the events mean is `insights/events.ts`. Keys expire after the retention
 * period, and the sweep prunes older events.
 */
import { checkEvent, KEEP_FIRST, loadEvent, type InsightEvent, type InsightsStore } from "../../insights/events.js";
import { RedisConnection, type RedisHashStoreOptions } from "./redis-connection.js";

export type RedisInsightsOptions = RedisHashStoreOptions;

export class RedisInsights implements InsightsStore {
  private readonly conn: RedisConnection;

  constructor(opts: RedisInsightsOptions) {
    this.conn = new RedisConnection("RedisInsights", opts);
  }

  private keys(repoKey: string) {
    const base = `${this.conn.prefix}:insights`;
    return { events: `${base}:events:${repoKey}`, at: `${base}:at:${repoKey}`, repos: `${base}:repos`, names: `${base}:names` };
  }

  async put(repo: string, event: InsightEvent): Promise<boolean> {
    checkEvent(repo, event);
    const { redis, keepMs } = this.conn;
    const repoKey = repo.toLowerCase();
    const k = this.keys(repoKey);
    const field = `${event.type}:${event.key}`;
    const json = JSON.stringify(event);
    // A kept first stays: HSETNX decides, then the index follows.
    if (KEEP_FIRST.has(event.type) && (await redis.hsetnx(k.events, field, json)) === 0) return false;
    const tx = redis.multi();
    if (!KEEP_FIRST.has(event.type)) tx.hset(k.events, field, json);
    tx.zadd(k.at, event.at, field);
    tx.zadd(k.repos, "GT", event.at, repoKey);
    tx.hset(k.names, repoKey, repo);
    tx.pexpire(k.events, keepMs);
    tx.pexpire(k.at, keepMs);
    const replies = await tx.exec();
    const failed = replies?.find(([err]) => err);
    if (failed) throw failed[0];
    return true;
  }

  async between(repo: string, from: number, to: number): Promise<InsightEvent[]> {
    const { redis } = this.conn;
    const k = this.keys(repo.toLowerCase());
    const fields = await redis.zrangebyscore(k.at, from, `(${to}`);
    if (fields.length === 0) return [];
    const values = await redis.hmget(k.events, ...fields);
    return values.flatMap((json) => (json === null ? [] : (loadEvent(json) ?? [])));
  }

  async repositories(since: number): Promise<string[]> {
    const { redis } = this.conn;
    const k = this.keys("");
    const repoKeys = (await redis.zrangebyscore(k.repos, since, "+inf")).sort();
    if (repoKeys.length === 0) return [];
    const names = await redis.hmget(k.names, ...repoKeys);
    return repoKeys.map((key, i) => names[i] ?? key);
  }

  async prune(before: number): Promise<number> {
    const { redis } = this.conn;
    const all = this.keys("");
    let pruned = 0;
    for (const repoKey of await redis.zrange(all.repos, 0, -1)) {
      const k = this.keys(repoKey);
      const old = await redis.zrangebyscore(k.at, "-inf", `(${before}`);
      if (old.length === 0) continue;
      await redis.multi().hdel(k.events, ...old).zremrangebyscore(k.at, "-inf", `(${before}`).exec();
      pruned += old.length;
    }
    const gone = await redis.zrangebyscore(all.repos, "-inf", `(${before}`);
    if (gone.length > 0) await redis.multi().zrem(all.repos, ...gone).hdel(all.names, ...gone).exec();
    return pruned;
  }

  close(): Promise<void> {
    return this.conn.close();
  }
}
