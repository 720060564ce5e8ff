/** The JobRunner's tests (written against SqliteQueue) run again here over RedisQueue; the queue's own contract runs on both in test/store/job-queue-contract.test.ts. */
import { afterAll } from "vitest";
import { useRedis } from "./helpers.js";
import { startRedis } from "./redis-server.js";

const server = await startRedis();
afterAll(() => server.stop());
useRedis(server.url);

await import("./runner.test.js");
