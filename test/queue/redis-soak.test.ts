/**
 * Soak: four worker processes, 8 jobs at once each, share one real Redis; 52 jobs, some slow, some
 * deferring once, some marking their agents started late, and a few whose handler ignores its abort;
 * one worker is killed (SIGKILL) mid-run, a few running jobs are cancelled and a few superseded. Every
 * job ends with an outcome (none stays queued or running), none runs to completion twice, none is
 * lost, and the queue's indexes keep no running or queued trace. Leases are short (3 s, a heartbeat every
 * 300 ms: a loaded machine does not stall a live worker that long), so the dead worker's jobs are recovered
 * within the test.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { INTERRUPTED_OUTCOME } from "../../src/queue/job-queue.js";
import { RedisQueue } from "../../src/store/redis/job-queue.js";
import { targetKey, type JobRecord, type NewJob } from "../../src/queue/types.js";
import { newJob, redisPrefixFor, tempDataDir } from "./helpers.js";
import { startRedis } from "./redis-server.js";

const server = await startRedis();
afterAll(() => server.stop());

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), "redis-soak-worker.ts");
const SETTINGS = { maxActive: 8, fastMs: 40, slowMs: 1_500, leaseMs: 3_000 };
/**
 * Jobs 1…16 are queued while only the victim runs (so it surely holds some), 17…48 once all four run,
 * 49…52 after the victim is dead (so the live workers surely run some of the jobs that ignore their abort).
 */
const WAVES = [16, 48, 52];
const JOBS = WAVES.at(-1)!;
const OTHERS = ["w1", "w2", "w3"];
/** Jobs whose handler ignores its abort: the test cancels these… */
const CANCELLED = [11, 22, 44, 49];
/** …and supersedes these. */
const SUPERSEDED = [13, 26, 39, 52];
const ENDED = /^(succeeded|failed|cancelled)$/;

const children: ChildProcess[] = [];
const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(children.splice(0).map(stopChild));
  await Promise.all(closing.splice(0).map((close) => close()));
});

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  return exited;
}

/** What job `n` does (see redis-soak-worker.ts). */
function soakJob(n: number): NewJob {
  const does = [n % 5 === 0 && "slow", n % 3 === 0 && "late", n % 7 === 0 && "defer", [...CANCELLED, ...SUPERSEDED].includes(n) && "hang"];
  const job = newJob({ number: n, inst: 1 + (n % 4) });
  job.trigger.request = does.filter(Boolean).join(" ") || "fast";
  return SUPERSEDED.includes(n) ? { ...job, group: "g" } : job;
}

interface Run {
  what: string;
  job: string;
  worker: string;
}

function runs(file: string): Run[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => {
      const [what, job, worker] = l.split(" ") as [string, string, string];
      return { what, job, worker };
    });
}

describe("Redis queue soak: 4 worker processes × 8 jobs, one killed mid-run", () => {
  it("ends every job once, loses none, and leaves no running or queued trace", async () => {
    const dir = await tempDataDir();
    const prefix = redisPrefixFor(dir);
    const file = path.join(dir, "runs.log");
    const q = new RedisQueue({ url: server.url, prefix });
    closing.push(() => q.close());
    const start = (name: string): ChildProcess => {
      const child = spawn(process.execPath, ["--import", "tsx", WORKER, server.url, prefix, name, file, JSON.stringify(SETTINGS)], {
        cwd: process.cwd(),
        stdio: ["ignore", "inherit", "inherit"],
      });
      children.push(child);
      return child;
    };
    const ready = (names: string[]) =>
      vi.waitFor(() => expect(names.filter((n) => existsSync(`${file}.${n}.ready`))).toEqual(names), { timeout: 30_000, interval: 20 });
    const started = (name: string) => runs(file).filter((r) => r.worker === name && r.what === "start").length;
    const jobs = new Map<number, string>();
    const enqueue = async (from: number, to: number) => {
      for (let n = from; n <= to; n++) jobs.set(n, (await q.enqueue(soakJob(n))).job.id);
    };

    const victim = start("victim");
    await ready(["victim"]);
    await enqueue(1, WAVES[0]!);
    const victimHolds = [CANCELLED[0]!, SUPERSEDED[0]!].map((n) => jobs.get(n)!);
    await vi.waitFor(
      async () => {
        for (const id of victimHolds) expect(await q.get(id)).toMatchObject({ state: "running", workerId: "victim" });
      },
      { timeout: 30_000, interval: 10 },
    );
    OTHERS.forEach(start);
    await ready(OTHERS);
    await enqueue(WAVES[0]! + 1, WAVES[1]!);
    // Killed mid-run: it still holds jobs 11 and 13 (their handlers never return) while the others run too.
    await vi.waitFor(() => expect(OTHERS.some((n) => started(n) > 0)).toBe(true), { timeout: 30_000, interval: 10 });
    victim.kill("SIGKILL");
    await enqueue(WAVES[1]! + 1, WAVES[2]!);

    // The jobs that ignore their abort are cancelled or superseded once they run (or have ended with the victim).
    const successors = new Map<number, string>();
    await Promise.all(
      [...CANCELLED, ...SUPERSEDED].map(async (n) => {
        const id = jobs.get(n)!;
        const job = await vi.waitFor(
          async () => {
            const now = await q.get(id);
            expect(now?.state).not.toBe("queued");
            return now!;
          },
          { timeout: 30_000, interval: 20 },
        );
        if (CANCELLED.includes(n)) await q.requestCancel(targetKey(job.target), "tester");
        else successors.set(n, (await q.enqueue({ ...soakJob(n), trigger: { ...job.trigger, request: "fast" }, supersede: true })).job.id);
      }),
    );

    const ids = [...jobs.values(), ...successors.values()];
    const all = await vi.waitFor(
      async () => {
        const now = await Promise.all(ids.map((id) => q.get(id)));
        expect(now.filter((j) => !ENDED.test(j?.state ?? "")).map((j) => `${j?.id} ${j?.state} on ${j?.workerId}`)).toEqual([]);
        return now as JobRecord[];
      },
      { timeout: 60_000, interval: 50 },
    );
    expect(all).toHaveLength(JOBS + SUPERSEDED.length);

    const seen = runs(file);
    const dones = (id: string) => seen.filter((r) => r.what === "done" && r.job === id).length;
    // Only the victim's jobs may end without their handler: interrupted, once their agents had started.
    const interruptedOnVictim = (job: JobRecord) =>
      job.state === "failed" && job.outcome === INTERRUPTED_OUTCOME && job.agentsStarted === true && job.workerId === "victim";
    for (const job of all) {
      expect(job.outcome, job.id).toBeTruthy();
      // Ran to completion at most once, whichever workers started it.
      expect(dones(job.id), job.id).toBeLessThanOrEqual(1);
      const n = [...jobs].find(([, id]) => id === job.id)?.[0];
      if (interruptedOnVictim(job)) continue;
      if (n !== undefined && CANCELLED.includes(n)) {
        expect(job, job.id).toMatchObject({ state: "cancelled", outcome: "⏹ Cancelled by @tester" });
      } else if (n !== undefined && SUPERSEDED.includes(n)) {
        expect(job, job.id).toMatchObject({ state: "cancelled", outcome: `⏹ Superseded by job ${successors.get(n)}` });
      } else {
        expect(job, job.id).toMatchObject({ state: "succeeded", outcome: "✅ Done" });
        expect(dones(job.id), job.id).toBe(1);
      }
    }

    // The indexes agree: nothing left running, queued, due or counted against an installation.
    const redis = new Redis(server.url);
    closing.push(() => redis.quit());
    for (const key of ["state:running", "state:queued", "runat"]) expect(await redis.zcard(`${prefix}:${key}`), key).toBe(0);
    const lines = [...(await redis.keys(`${prefix}:inst-running:*`)), ...(await redis.keys(`${prefix}:active:*`))];
    expect(await Promise.all(lines.map((k) => redis.zcard(k)))).toEqual(lines.map(() => 0));
  }, 120_000);
});
