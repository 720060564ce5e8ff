/**
 * A worker process for the Redis process test: a JobRunner over its own RedisQueue. Its handler marks
 * the job's agents as started, appends `start <job> <worker>` to the runs file, sleeps, then appends
 * `done <job> <worker>` and succeeds. Writes `<runsFile>.<worker>.ready` once running; SIGTERM stops it.
 */
import { appendFileSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { RedisQueue } from "../../src/store/redis/job-queue.js";
import { JobRunner } from "../../src/queue/runner.js";

const [url, prefix, workerId, runsFile, sleepMs] = process.argv.slice(2) as [string, string, string, string, string];
const queue = await RedisQueue.connect({ url, prefix });
const runner = new JobRunner({
  queue,
  workerId,
  limits: { perInstallation: 2, global: 3 },
  leaseMs: 1_000,
  heartbeatMs: 100,
  pollMs: 50,
  recoverEveryMs: 200,
  abortGraceMs: 200,
  handler: async (job, ctx) => {
    // From here an interruption is final: the job must not run again.
    await ctx.update({ agentsStarted: true });
    appendFileSync(runsFile, `start ${job.id} ${workerId}\n`);
    try {
      await sleep(Number(sleepMs), undefined, { signal: ctx.signal });
    } catch {
      return { state: "failed", outcome: "❌ Failed: aborted" };
    }
    appendFileSync(runsFile, `done ${job.id} ${workerId}\n`);
    return { state: "succeeded", outcome: "✅ Done" };
  },
});
await runner.start();
writeFileSync(`${runsFile}.${workerId}.ready`, "");
process.once("SIGTERM", () => {
  void runner
    .stop({ drain: false })
    .then(() => queue.close())
    .then(() => process.exit(0));
});
