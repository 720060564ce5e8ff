import { afterAll } from "vitest";
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
