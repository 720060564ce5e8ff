/**
 * The queue's contract tests (written against SqliteQueue) run again here on RedisQueue: `useRedis` makes
 * their `Queues` open Redis queues, one key prefix per data directory. SQLite-only tests are skipped.
 */
import { afterAll, beforeEach } from "vitest";
import { useRedis } from "../queue/helpers.js";
import { startRedis } from "../queue/redis-server.js";

const server = await startRedis();
afterAll(() => server.stop());
useRedis(server.url);

/** About the SQLite file itself, not the contract. */
const SQLITE_ONLY = [/creates the schema once, in WAL mode/];
beforeEach((ctx) => {
  if (SQLITE_ONLY.some((re) => re.test(ctx.task.name))) ctx.skip();
});

await import("./sqlite-job-queue.test.js");
await import("../queue/supersede.test.js");
await import("../queue/run-at.test.js");
await import("../queue/defer.test.js");
await import("../queue/wait.test.js");
await import("../queue/review-field.test.js");
