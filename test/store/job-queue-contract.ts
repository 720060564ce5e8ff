/**
 * The JobQueue contract, for any backend: `place()` is a new empty queue's location, `open` opens a
 * queue there (two openings of one place are two processes sharing it). Run for SQLite and Redis in
 * job-queue-contract.test.ts; the longer per-feature suites (supersede, run-at, defer, wait) run on
 * both through `useRedis` as well.
 */
import { describe, expect, it } from "vitest";
import { INTERRUPTED_OUTCOME, type JobQueue } from "../../src/queue/job-queue.js";
import { targetKey } from "../../src/queue/types.js";
import type { JobWait, WaitAnswer } from "../../src/queue/wait.js";
import { LIMITS, newJob } from "../queue/helpers.js";
import { closedAfterEach } from "./closed-after-each.js";

export interface JobQueueFactory {
  place(): Promise<string>;
  open(place: string, now?: () => number): JobQueue;
}

export function jobQueueContract(name: string, factory: JobQueueFactory): void {
  const open = closedAfterEach((place, now) => factory.open(place, now));
  const fresh = async (now?: () => number) => open(await factory.place(), now);

  describe(`${name}: the job queue contract`, () => {
    it("stores a queued job once per delivery id, whichever opening enqueues it", async () => {
      const place = await factory.place();
      const [a, b] = [open(place), open(place)];
      const first = await a.enqueue(newJob({ deliveryId: "d-1" }));
      const again = await b.enqueue(newJob({ deliveryId: "d-1", number: 9 }));
      expect(first).toMatchObject({ duplicate: false, superseded: [], job: { state: "queued", deliveryId: "d-1", attempts: 0 } });
      expect(again).toMatchObject({ duplicate: true, job: { id: first.job.id, target: { number: 1 } } });
      expect(await b.get(first.job.id)).toEqual(first.job);
      expect(await a.count("queued")).toBe(1);
    });

    it("claims the oldest due job, leased, one per target, within the limits", async () => {
      let now = 1_000;
      const q = await fresh(() => now);
      const one = (await q.enqueue(newJob({ number: 1 }))).job;
      now += 1;
      const behind = (await q.enqueue(newJob({ number: 1 }))).job;
      now += 1;
      const other = (await q.enqueue(newJob({ number: 2 }))).job;
      const claimed = await q.claim("w", { ...LIMITS, leaseMs: 500 });
      expect(claimed).toMatchObject({ id: one.id, state: "running", attempts: 1, workerId: "w", leaseExpiresAt: now + 500 });
      expect((await q.claim("w", LIMITS))?.id).toBe(other.id); // the job behind #1 waits for it
      expect(await q.claim("w", LIMITS)).toBeUndefined();
      expect((await q.activeOn(targetKey(one.target))).map((j) => [j.id, j.state])).toEqual([[one.id, "running"], [behind.id, "queued"]]);
      expect(await q.claim("x", { perInstallation: 1, global: 10, leaseMs: 500 })).toBeUndefined();
    });

    it("heartbeats the holder's lease and tells it of a cancel from anywhere", async () => {
      const place = await factory.place();
      const [a, b] = [open(place), open(place)];
      const { job } = await a.enqueue(newJob());
      await a.claim("w", LIMITS);
      const holder = { workerId: "w", attempt: 1 };
      expect(await a.heartbeat(job.id, holder)).toEqual({ held: true, cancelRequested: false });
      expect(await a.heartbeat(job.id, { workerId: "other", attempt: 1 })).toEqual({ held: false, cancelRequested: false });
      await b.requestCancel(targetKey(job.target), "bob");
      expect(await a.heartbeat(job.id, holder)).toEqual({ held: true, cancelRequested: true, cancelledBy: "bob" });
    });

    it("finishes a job once, only while its holder holds it", async () => {
      const q = await fresh();
      const { job } = await q.enqueue(newJob());
      await q.claim("w", LIMITS);
      expect(await q.finish(job.id, "succeeded", "✅ Done", { workerId: "else", attempt: 1 })).toBeUndefined();
      expect(await q.finish(job.id, "succeeded", "✅ Done", { workerId: "w", attempt: 1 })).toMatchObject({ state: "succeeded", outcome: "✅ Done" });
      expect(await q.finish(job.id, "failed", "❌ Failed")).toBeUndefined();
      expect(await q.count("succeeded")).toBe(1);
    });

    it("defers a running job to a later time without using an attempt", async () => {
      let now = 1_000;
      const q = await fresh(() => now);
      const { job } = await q.enqueue(newJob());
      await q.claim("w", LIMITS);
      expect(await q.defer(job.id, { workerId: "w", attempt: 1 }, 5_000, "⏳ Waiting")).toMatchObject({ state: "queued", attempts: 0, runAt: 5_000, outcome: "⏳ Waiting" });
      expect(await q.nextRunAt()).toBe(5_000);
      expect(await q.claim("w", LIMITS)).toBeUndefined();
      now = 5_000;
      expect(await q.claim("w", LIMITS)).toMatchObject({ id: job.id, attempts: 1 });
    });

    it("pauses a job for its answer, takes one answer, and makes it due at once", async () => {
      const now = 1_000;
      const q = await fresh(() => now);
      const { job } = await q.enqueue(newJob());
      await q.claim("w", LIMITS);
      const wait: JobWait = { question: "Which database?", options: ["SQLite", "Postgres"], asker: "alice", commentId: 5, askedAt: now, expiresAt: 100_000, resume: { saved: true } };
      expect(await q.pause(job.id, { workerId: "w", attempt: 1 }, wait, "⏳ Waiting for @alice")).toMatchObject({ state: "queued", wait: { asker: "alice" } });
      expect(await q.claim("w", LIMITS)).toBeUndefined();
      const answer: WaitAnswer = { by: "alice", text: "SQLite", option: 1, at: now };
      expect(await q.answer(job.id, answer)).toMatchObject({ wait: { answer: { text: "SQLite" } } });
      expect(await q.answer(job.id, answer)).toBeUndefined();
      expect(await q.claim("w", LIMITS)).toMatchObject({ id: job.id, wait: { resume: { saved: true } } });
    });

    it("supersedes the queued jobs of a group and flags the running one", async () => {
      const q = await fresh();
      const group = { group: "review", supersede: true };
      const running = (await q.enqueue({ ...newJob(), ...group })).job;
      await q.claim("w", LIMITS);
      const waiting = (await q.enqueue({ ...newJob(), ...group })).job;
      const newest = await q.enqueue({ ...newJob(), ...group });
      expect(newest.superseded.map((j) => [j.id, j.state])).toEqual(expect.arrayContaining([[running.id, "running"], [waiting.id, "cancelled"]]));
      expect(await q.heartbeat(running.id, { workerId: "w", attempt: 1 })).toMatchObject({ held: true, supersededBy: newest.job.id });
    });

    it("recovers a dead worker's jobs: requeued before the agents started, else interrupted", async () => {
      let now = 1_000;
      const q = await fresh(() => now);
      const early = (await q.enqueue(newJob({ number: 1 }))).job;
      const late = (await q.enqueue(newJob({ number: 2 }))).job;
      await q.claim("dead", { ...LIMITS, leaseMs: 100 });
      await q.claim("dead", { ...LIMITS, leaseMs: 100 });
      await q.update(late.id, { agentsStarted: true, progressCommentId: 77 });
      now = 1_100;
      const { requeued, interrupted } = await q.recoverStale();
      expect(requeued.map((j) => [j.id, j.state])).toEqual([[early.id, "queued"]]);
      expect(interrupted.map((j) => [j.id, j.state, j.outcome, j.progressCommentId])).toEqual([[late.id, "failed", INTERRUPTED_OUTCOME, 77]]);
    });

    it("lists newest first, by target or state, and prunes only ended jobs with their delivery ids", async () => {
      let now = 1_000;
      const q = await fresh(() => now);
      const a = (await q.enqueue(newJob({ number: 1, deliveryId: "p-1" }))).job;
      now += 1;
      const b = (await q.enqueue(newJob({ number: 2, deliveryId: "p-2" }))).job;
      expect((await q.listRecent()).map((j) => j.id)).toEqual([b.id, a.id]);
      expect((await q.listRecent({ targetKey: targetKey(a.target) })).map((j) => j.id)).toEqual([a.id]);
      await q.finish(a.id, "cancelled", "⏹ Cancelled");
      expect((await q.listRecent({ state: "cancelled" })).map((j) => j.id)).toEqual([a.id]);
      now += 10_000;
      expect(await q.prune(now)).toEqual([a.id]);
      expect(await q.get(a.id)).toBeUndefined();
      expect(await q.get(b.id)).toMatchObject({ state: "queued" });
      expect((await q.enqueue(newJob({ number: 1, deliveryId: "p-1" }))).duplicate).toBe(false);
    });
  });
}
