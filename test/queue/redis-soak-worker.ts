/**
 * A worker process for the Redis soak test: a JobRunner over its own RedisQueue, `maxActive` jobs at once.
 * A job's request says what its handler does, so every worker treats a job alike (words, any order):
 *   slow   runs `slowMs` (else `fastMs`)
 *   late   marks its agents started only halfway (a worker killed before that requeues the job)
 *   defer  first defers itself once, 50 ms
 *   hang   runs until aborted, then never returns: a handler that ignores its signal
 * Appends `start|done|defer <job> <worker>` to the runs file, and writes `<runsFile>.<worker>.ready` once
 * running; SIGTERM stops it.
 */
import { appendFileSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { RedisQueue } from "../../src/store/redis/job-queue.js";
import { JobRunner } from "../../src/queue/runner.js";

interface SoakSettings {
  maxActive: number;
  fastMs: number;
  slowMs: number;
  leaseMs: number;
}

const [url, prefix, workerId, runsFile, settings] = process.argv.slice(2) as [string, string, string, string, string];
const { maxActive, fastMs, slowMs, leaseMs } = JSON.parse(settings) as SoakSettings;
const queue = await RedisQueue.connect({ url, prefix });
const log = (what: string, id: string) => appendFileSync(runsFile, `${what} ${id} ${workerId}\n`);
const runner = new JobRunner({
  queue,
  workerId,
  maxActive,
  limits: { perInstallation: 1_000, global: 1_000 },
  leaseMs,
  heartbeatMs: Math.floor(leaseMs / 10),
  pollMs: 100,
  recoverEveryMs: Math.floor(leaseMs / 4),
  abortGraceMs: 200,
  handler: async (job, ctx) => {
    const does = new Set(job.trigger.request.split(" "));
    if (does.has("defer") && !job.outcome?.startsWith("⏳ deferred")) {
      log("defer", job.id);
      return { state: "deferred", runAt: Date.now() + 50, outcome: "⏳ deferred once" };
    }
    if (!does.has("late")) await ctx.update({ agentsStarted: true });
    log("start", job.id);
    if (does.has("hang")) {
      await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
      return new Promise<never>(() => {});
    }
    const ms = does.has("slow") ? slowMs : fastMs;
    try {
      await sleep(does.has("late") ? ms / 2 : ms, undefined, { signal: ctx.signal });
      if (does.has("late")) {
        await ctx.update({ agentsStarted: true });
        await sleep(ms / 2, undefined, { signal: ctx.signal });
      }
    } catch {
      return { state: "failed", outcome: "❌ Failed: aborted" };
    }
    log("done", job.id);
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
