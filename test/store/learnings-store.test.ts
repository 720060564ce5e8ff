import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { RedisLearningsStore } from "../../src/store/redis/learnings.js";
import { SqliteLearningsStore } from "../../src/store/sqlite/learnings.js";
import { redisPrefixFor, tempDataDir } from "../queue/helpers.js";
import { startRedis } from "../queue/redis-server.js";
import { learningsStoreContract } from "./learnings-contract.js";

const server = await startRedis();
afterAll(() => server.stop());

learningsStoreContract("SqliteLearningsStore", {
  place: tempDataDir,
  open: (dataDir, now) => new SqliteLearningsStore(now ? { dataDir, now } : { dataDir }),
});

learningsStoreContract("RedisLearningsStore", {
  place: tempDataDir,
  open: (dir, now) => new RedisLearningsStore({ url: server.url, prefix: redisPrefixFor(dir), ...(now ? { now } : {}) }),
});

describe("RedisLearningsStore: a use recorded during a sighting's compare-and-swap", () => {
  it("is kept, and the sighting is tried again after another writer's change: no EXEC lands inside another's WATCH", async () => {
    const store = new RedisLearningsStore({ url: server.url, prefix: redisPrefixFor(await tempDataDir()) });
    const other = new Redis(server.url);
    try {
      const redis = (store as unknown as { backend: { redis: Redis } }).backend.redis;
      const watch = redis.watch.bind(redis);
      const use = { id: "aaaa1111", jobId: "job-1", at: 5_000, suppressed: 1, shaped: 1 };
      let recording: Promise<void> | undefined;
      // Right after the sighting's WATCH: another process writes the watched hash, and this process records a use.
      redis.watch = (async (...keys: string[]) => {
        const reply = await watch(...keys);
        if (!recording) {
          await other.hset(keys[0]!, "written-elsewhere", "{}");
          recording = store.recordUses("octo/hello", [use]);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return reply;
      }) as typeof redis.watch;
      const sighting = { source: "dismissed", url: "https://github.com/octo/hello/pull/1#discussion_r1", number: 1, by: "octocat", at: 1_000, kind: "raw sql", text: "finding: raw SQL", path: "src/db.ts" } as const;
      await store.addSighting("octo/hello", sighting);
      await recording;
      expect([...(await store.usage("octo/hello", 0)).keys()]).toEqual(["aaaa1111"]);
      expect(await store.lastUses("octo/hello")).toEqual(new Map([["aaaa1111", 5_000]]));
    } finally {
      other.disconnect();
      await store.close();
    }
  });
});
