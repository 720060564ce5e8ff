/** The JobRunner's tests (written against SqliteQueue) run again here over RedisQueue; see redis-contract-queue.test.ts. */
import { afterAll } from "vitest";
import { useRedis } from "./helpers.js";
import { startRedis } from "./redis-server.js";

const server = await startRedis();
afterAll(() => server.stop());
useRedis(server.url);

await import("./runner.test.js");
