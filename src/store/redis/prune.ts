import type { Redis } from "ioredis";

/**
 * Deletes the hashes matching `pattern` whose numeric `field` is older than `before` (epoch ms),
 * walking the keys with SCAN (never KEYS, which would block the server). Returns how many went.
 */
export async function pruneHashes(redis: Redis, pattern: string, field: string, before: number): Promise<number> {
  let deleted = 0;
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 500);
    cursor = next;
    for (const key of keys) {
      const at = Number(await redis.hget(key, field));
      if (Number.isFinite(at) && at < before) deleted += await redis.del(key);
    }
  } while (cursor !== "0");
  return deleted;
}
