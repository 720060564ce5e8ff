/**
 * Two worker processes, each a JobRunner over its own RedisQueue, share one Redis; one is killed
 * (SIGKILL) in the middle of a job. Every job still ends exactly once, none is lost, none runs twice,
 * and the killed worker's running job ends `❌ Failed: interrupted` (its agents had started).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { INTERRUPTED_OUTCOME } from "../../src/queue/job-queue.js";
import { RedisQueue } from "../../src/store/redis/job-queue.js";
import { newJob, redisPrefixFor, tempDataDir } from "./helpers.js";
import { startRedis } from "./redis-server.js";

const server = await startRedis();
afterAll(() => server.stop());

const worker = path.join(path.dirname(fileURLToPath(import.meta.url)), "redis-runner-worker.ts");
const children: ChildProcess[] = [];
const queues: RedisQueue[] = [];
afterEach(async () => {
  await Promise.all(children.splice(0).map(stopChild));
  await Promise.all(queues.splice(0).map((q) => q.close()));
});

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  return exited;
}

function lines(file: string): Array<{ what: string; job: string; worker: string }> {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => {
      const [what, job, w] = l.split(" ") as [string, string, string];
      return { what, job, worker: w };
    });
}

describe("RedisQueue across processes", () => {
  it("ends every job exactly once when a worker process is killed mid-job", async () => {
    const dir = await tempDataDir();
    const prefix = redisPrefixFor(dir);
    const runs = path.join(dir, "runs.log");
    const q = new RedisQueue({ url: server.url, prefix });
    queues.push(q);
    const ids: string[] = [];
    for (let n = 0; n < 12; n++) ids.push((await q.enqueue(newJob({ number: n, inst: 1 + (n % 3) }))).job.id);

    const start = (name: string, sleepMs: number) => {
      const child = spawn(process.execPath, ["--import", "tsx", worker, server.url, prefix, name, runs, String(sleepMs)], {
        cwd: process.cwd(),
        stdio: ["ignore", "inherit", "inherit"],
      });
      children.push(child);
      return child;
    };
    const readyFile = (name: string) => `${runs}.${name}.ready`;
    const startsBy = (name: string) => lines(runs).filter((l) => l.what === "start" && l.worker === name);
    // The victim starts alone, with jobs far longer than the test: it is surely mid-job when killed.
    const victim = start("victim", 60_000);
    await vi.waitFor(() => expect(startsBy("victim").length).toBeGreaterThan(0), { timeout: 30_000, interval: 10 });
    start("survivor", 200);
    await vi.waitFor(() => expect(existsSync(readyFile("survivor"))).toBe(true), { timeout: 30_000, interval: 10 });
    const killedDuring = startsBy("victim").map((l) => l.job);
    victim.kill("SIGKILL");

    // The survivor recovers the victim's jobs once their lease runs out, and runs the rest.
    const all = await vi.waitFor(
      async () => {
        const jobs = await Promise.all(ids.map((id) => q.get(id)));
        for (const job of jobs) expect(job?.state).toMatch(/succeeded|failed|cancelled/);
        return jobs.map((j) => j!);
      },
      { timeout: 30_000, interval: 50 },
    );

    const seen = lines(runs);
    const startsOf = (id: string) => seen.filter((l) => l.what === "start" && l.job === id);
    const donesOf = (id: string) => seen.filter((l) => l.what === "done" && l.job === id);
    for (const id of killedDuring) {
      expect(all.find((j) => j.id === id)).toMatchObject({ state: "failed", outcome: INTERRUPTED_OUTCOME });
    }
    for (const job of all) {
      // Nothing runs twice: agents start at most once per job.
      expect(startsOf(job.id).length).toBeLessThanOrEqual(1);
      if (job.state === "succeeded") {
        expect(job.outcome).toBe("✅ Done");
        expect(startsOf(job.id)).toHaveLength(1);
        expect(donesOf(job.id)).toHaveLength(1);
      } else {
        // Only the victim's started jobs may end without their handler, as interrupted.
        expect(job).toMatchObject({ state: "failed", outcome: INTERRUPTED_OUTCOME, agentsStarted: true });
        expect(startsOf(job.id).every((l) => l.worker === "victim")).toBe(true);
        expect(donesOf(job.id)).toHaveLength(0);
      }
    }
    // The survivor did the rest, including any job the victim had claimed but not started (requeued).
    expect(all.filter((j) => j.state === "succeeded").length).toBe(ids.length - all.filter((j) => j.state === "failed").length);
    expect(all.filter((j) => j.state === "succeeded").length).toBeGreaterThanOrEqual(ids.length - 3);
    expect(await q.listRecent({ state: "running" })).toEqual([]);
    expect(await q.listRecent({ state: "queued" })).toEqual([]);
  }, 60_000);
});
