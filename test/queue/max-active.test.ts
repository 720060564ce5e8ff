import { afterEach, describe, expect, it, vi } from "vitest";
import { Queues, newJob, tempDataDir } from "./helpers.js";
import { Runners, deferred, ended } from "./runner-helpers.js";

const queues = new Queues();
const runners = new Runners();
afterEach(async () => {
  await runners.stopAll();
  await queues.closeAll();
});

describe("JobRunner maxActive (CREWBOT_WORKER_CONCURRENCY)", () => {
  it("holds at most maxActive jobs, leaving the rest to another worker sharing the queue", async () => {
    const q = queues.open(await tempDataDir());
    const jobs = [];
    for (let n = 1; n <= 5; n++) jobs.push((await q.enqueue(newJob({ number: n, inst: n }))).job);
    const release = deferred();
    const handler = async () => (await release.promise, { state: "succeeded" as const, outcome: "✅ Done" });
    const limits = { perInstallation: 5, global: 100 };
    const first = runners.make(q, handler, { workerId: "w1", limits, maxActive: 2 });
    await first.start();
    await vi.waitFor(() => expect(first.running).toHaveLength(2));
    const second = runners.make(q, handler, { workerId: "w2", limits, maxActive: 2 });
    await second.start();
    await vi.waitFor(() => expect(second.running).toHaveLength(2));
    expect(first.running).toHaveLength(2); // the queue-wide limit would have let one runner take all five
    expect((await q.listRecent({ state: "queued" })).map((j) => j.id)).toHaveLength(1);
    release.resolve();
    for (const job of jobs) expect(await ended(q, job.id)).toMatchObject({ state: "succeeded" });
  });
});
