import { afterAll } from "vitest";
import { RedisReviewStore } from "../../src/store/redis/review-store.js";
import { SqliteReviewStore } from "../../src/store/sqlite/review-store.js";
import { redisPrefixFor, tempDataDir } from "../queue/helpers.js";
import { startRedis } from "../queue/redis-server.js";
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
