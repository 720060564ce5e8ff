import { afterAll } from "vitest";
import { RedisReviewStore } from "../../src/queue/redis-review-store.js";
import { SqliteReviewStore } from "../../src/queue/sqlite-review-store.js";
import { redisPrefixFor, tempDataDir } from "./helpers.js";
import { startRedis } from "./redis-server.js";
import { reviewStoreContract } from "./review-store-contract.js";

const server = await startRedis();
afterAll(() => server.stop());

reviewStoreContract("SqliteReviewStore", {
  place: tempDataDir,
  open: (dataDir, now) => new SqliteReviewStore(now ? { dataDir, now } : { dataDir }),
});

reviewStoreContract("RedisReviewStore", {
  place: tempDataDir,
  open: (dir, now) => new RedisReviewStore({ url: server.url, prefix: redisPrefixFor(dir), ...(now ? { now } : {}) }),
});
