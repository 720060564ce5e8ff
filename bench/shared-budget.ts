/**
 * The shared write budget, printed by `npm run bench` (`BENCH_ONLY=shared-budget` for this one alone):
 * 40 `/plan` jobs on one installation, their GitHub writes (👀, the progress comment, three progress
 * edits, the final edit) sent through 2 and then 4 workers' gates — each its own Redis connection, as
 * separate processes have — on one real redis-server. A virtual clock (passed to the Redis script)
 * stands in for the minutes this takes. Figures: the most content-creating requests in any 60 s and
 * any hour (GitHub's limits: 80 and 500), the final edits' waits, and the jobs' writes done per minute.
 * It measures the gates and the Redis script alone (no app, no jobs, no GitHub stand-in): bench/budget-workers.ts
 * runs the same 40 jobs through real worker processes on the real clock.
 */
import { WriteGate, type Clock } from "../src/report/write-gate.js";
import { RedisSharedLimits } from "../src/store/redis/shared-limits.js";
import { startRedis } from "../test/queue/redis-server.js";

const JOBS = 40;
const PROGRESS_EDITS = 3;
const INSTALLATION = 4242;

/** Time that moves only when every writer sleeps: the earliest sleeper wakes, at its time. */
class VirtualClock implements Clock {
  private readonly start = Date.now(); // above 0: the Redis script takes 0 for "use your own clock"
  private t = this.start;
  private sleepers: Array<{ at: number; wake: () => void }> = [];
  now = () => this.t;
  elapsed = () => this.t - this.start;
  sleep = (ms: number) => new Promise<void>((wake) => this.sleepers.push({ at: this.t + Math.max(1, ms), wake }));
  /** Wakes the earliest sleeper once the process is quiet (Redis answered); false when nothing sleeps. */
  async step(): Promise<boolean> {
    await new Promise((r) => setTimeout(r, 3));
    if (this.sleepers.length === 0) return false;
    this.sleepers.sort((a, b) => a.at - b.at);
    const next = this.sleepers.shift()!;
    this.t = Math.max(this.t, next.at);
    next.wake();
    return true;
  }
}

export function mostIn(times: number[], windowMs: number): number {
  const t = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; j < t.length; j++) {
    while (t[j]! - t[i]! >= windowMs) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

async function run(url: string, workers: number): Promise<string> {
  const prefix = `crewbot-bench-budget-${workers}-${Date.now()}`;
  const clock = new VirtualClock();
  const stores = Array.from({ length: workers }, () => new RedisSharedLimits({ url, prefix }));
  const gates = stores.map((store) => new WriteGate(1000, clock, {}, { store, installationId: INSTALLATION, useClock: true }));
  const started: number[] = [];
  const finalWaits: number[] = [];
  const write = (gate: WriteGate, options = {}) => gate.run(async () => (await gate.turn(), started.push(clock.now())), options).catch(() => undefined);
  const jobs = Array.from({ length: JOBS }, async (_, i) => {
    const gate = gates[i % workers]!;
    await write(gate);
    await write(gate);
    for (let e = 0; e < PROGRESS_EDITS; e++) void write(gate, { progress: true, key: `comment-${i}` });
    const asked = clock.now();
    await write(gate, { key: `comment-${i}` });
    finalWaits.push(clock.now() - asked);
  });
  let done = false;
  void Promise.all(jobs).then(() => (done = true));
  while (!done) await clock.step(); // a quiet moment with no sleeper: Redis is still answering
  await Promise.all(jobs);
  await Promise.all(stores.map((s) => s.close()));
  const minutes = clock.elapsed() / 60_000;
  const waits = [...finalWaits].sort((a, b) => a - b);
  const p = (q: number) => (waits[Math.min(waits.length - 1, Math.floor(q * waits.length))]! / 1000).toFixed(0);
  return (
    `${workers} workers: ${started.length} writes in ${minutes.toFixed(1)} virtual minutes; most in any 60 s ${mostIn(started, 60_000)} (GitHub: 80), ` +
    `in any hour ${mostIn(started, 3_600_000)} (GitHub: 500); final edits waited p50 ${p(0.5)} s, max ${p(1)} s; ` +
    `${(JOBS / Math.max(minutes, 1 / 60)).toFixed(1)} jobs' writes done a minute (one installation: the budget, not the workers, sets it)`
  );
}

export async function sharedBudgetBench(): Promise<string[]> {
  const redis = await startRedis();
  try {
    return ["shared write budget (one installation, Redis):", `  ${await run(redis.url, 2)}`, `  ${await run(redis.url, 4)}`];
  } finally {
    await redis.stop();
  }
}
