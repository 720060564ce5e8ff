import { afterEach, describe, expect, it } from "vitest";
import { queueDepth } from "../../src/app/compose.js";
import { Metrics } from "../../src/metrics/metrics.js";
import { SqliteQueue } from "../../src/store/sqlite/job-queue.js";
import { LIMITS, newJob, tempDataDir } from "../queue/helpers.js";

const queues: SqliteQueue[] = [];
afterEach(async () => {
  await Promise.all(queues.splice(0).map((q) => q.close()));
});

describe("the queue-depth gauges", () => {
  it("count every waiting and running job, past the 1000 a job list shows", async () => {
    const queue = new SqliteQueue({ dataDir: await tempDataDir() });
    queues.push(queue);
    for (let i = 0; i < 1200; i++) await queue.enqueue(newJob({ number: i + 1 }));
    await queue.claim("w", LIMITS);
    const text = await new Metrics(queueDepth(queue), { defaults: false }).registry.metrics();
    expect(text).toContain("crewbot_queue_depth 1199");
    expect(text).toContain("crewbot_jobs_running 1");
  });
});
