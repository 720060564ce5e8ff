/** The JobQueue contract (job-queue-contract.ts) on the embedded SQLite queue and on Redis (a real redis-server). */
import { afterAll } from "vitest";
import { RedisQueue } from "../../src/store/redis/job-queue.js";
import { SqliteQueue } from "../../src/store/sqlite/job-queue.js";
import { redisPrefixFor, tempDataDir } from "../queue/helpers.js";
import { startRedis } from "../queue/redis-server.js";
import { jobQueueContract } from "./job-queue-contract.js";

const server = await startRedis();
afterAll(() => server.stop());

jobQueueContract("SqliteQueue", { place: tempDataDir, open: (dataDir, now) => new SqliteQueue(now ? { dataDir, now } : { dataDir }) });
jobQueueContract("RedisQueue", { place: tempDataDir, open: (dataDir, now) => new RedisQueue({ url: server.url, prefix: redisPrefixFor(dataDir), ...(now ? { now } : {}) }) });
