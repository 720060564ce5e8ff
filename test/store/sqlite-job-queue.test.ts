import { statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { INTERRUPTED_OUTCOME } from "../../src/queue/job-queue.js";
import { newJobId } from "../../src/queue/new-job.js";
import { DB_FILE, SCHEMA_VERSION } from "../../src/store/sqlite/job-queue.js";
import { targetKey } from "../../src/queue/types.js";
import { LIMITS, Queues, newJob, tempDataDir } from "../queue/helpers.js";

const queues = new Queues();
afterEach(() => queues.closeAll());

describe("SqliteQueue: storing jobs", () => {
  it("drops a duplicate delivery: the second enqueue returns the first job and stores nothing", async () => {
    const q = queues.open(await tempDataDir());
    const first = await q.enqueue(newJob({ deliveryId: "d-1" }));
    const again = await q.enqueue({ ...newJob({ deliveryId: "d-1", number: 99 }), kind: "review" });
    expect(first.duplicate).toBe(false);
    expect(again.duplicate).toBe(true);
    expect(again.job).toEqual(first.job);
    expect(await q.listRecent()).toHaveLength(1);
  });

  it("keeps jobs across a restart (reopening the file), with every field intact", async () => {
    const dir = await tempDataDir();
    const q1 = queues.open(dir);
    const job = { ...newJob({ number: 5 }), subject: { title: "Add a flag", body: "Body\nwith lines", author: "carol" } };
    const { job: stored } = await q1.enqueue(job);
    await q1.update(stored.id, { progressCommentId: 4242 });
    await q1.close();

    const q2 = queues.open(dir);
    const back = await q2.get(stored.id);
    expect(back).toMatchObject({ ...job, id: stored.id, state: "queued", attempts: 0, progressCommentId: 4242 });
    expect(back?.createdAt).toBe(stored.createdAt);
    expect((await q2.enqueue(newJob({ number: 6 }))).job.subject).toBeUndefined();
    expect((await q2.enqueue(job)).duplicate).toBe(true);
  });

  it("keeps fields the job type gains later, without letting them pose as queue state", async () => {
    const q = queues.open(await tempDataDir());
    const job = { ...newJob(), plan: { steps: ["a", "b"] }, state: "succeeded", outcome: "✅ Done", attempts: 9 };
    const { job: stored } = await q.enqueue(job as typeof job & ReturnType<typeof newJob>);
    expect(await q.get(stored.id)).toMatchObject({ plan: { steps: ["a", "b"] }, state: "queued", attempts: 0 });
    expect((await q.get(stored.id))?.outcome).toBeUndefined();
  });

  it("creates the schema once, in WAL mode, owner-only, and refuses a newer schema", async () => {
    const dir = await tempDataDir();
    queues.open(dir);
    queues.open(dir); // opening twice migrates nothing twice
    const file = path.join(dir, DB_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const raw = new Database(file);
    expect(raw.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    await queues.closeAll();
    expect(() => queues.open(dir)).toThrow(/newer than this crewbot/);
  });

  it("makes short, URL-safe, unguessable ids", () => {
    const ids = Array.from({ length: 2000 }, newJobId);
    for (const id of ids) expect(id).toMatch(/^[a-z2-7]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("says which job a second job on the same target waits behind", async () => {
    const q = queues.open(await tempDataDir());
    const a = await q.enqueue(newJob({ number: 1 }));
    const b = await q.enqueue(newJob({ number: 1 }));
    const other = await q.enqueue(newJob({ number: 2 }));
    expect(a.waitingBehind).toBeUndefined();
    expect(b.waitingBehind).toBe(a.job.id);
    expect(other.waitingBehind).toBeUndefined();
    // Once the first runs, a third waits behind the running one.
    await q.claim("w", LIMITS);
    expect((await q.enqueue(newJob({ number: 1 }))).waitingBehind).toBe(a.job.id);
    const key = targetKey(a.job.target);
    expect(key).toBe("octo/hello#1");
    expect((await q.activeOn(key)).map((j) => j.state)).toEqual(["running", "queued", "queued"]);
  });

  it("rejects malformed jobs", async () => {
    const q = queues.open(await tempDataDir());
    await expect(q.enqueue({ ...newJob(), deliveryId: "" })).rejects.toThrow(/delivery id/);
    await expect(q.enqueue({ ...newJob(), kind: "deploy" as never })).rejects.toThrow(/kind/);
  });
});

describe("SqliteQueue: claiming", () => {
  it("claims oldest first, one job per target, and marks it running with a lease", async () => {
    let now = 1_000_000;
    const q = queues.open(await tempDataDir(), () => now);
    const a1 = (await q.enqueue(newJob({ number: 1 }))).job;
    const a2 = (await q.enqueue(newJob({ number: 1 }))).job;
    const b1 = (await q.enqueue(newJob({ number: 2 }))).job;

    const first = await q.claim("w1", LIMITS);
    expect(first).toMatchObject({ id: a1.id, state: "running", attempts: 1, workerId: "w1", startedAt: now });
    expect(first?.leaseExpiresAt).toBe(now + LIMITS.leaseMs);
    // a2 waits behind a1 although it is older than b1.
    expect((await q.claim("w1", LIMITS))?.id).toBe(b1.id);
    expect(await q.claim("w1", LIMITS)).toBeUndefined();

    now += 5;
    await q.finish(a1.id, "succeeded", "✅ Done", { workerId: "w1", attempt: 1 });
    expect((await q.claim("w2", LIMITS))?.id).toBe(a2.id);
  });

  it("keeps to 2 running jobs per installation and 4 overall", async () => {
    const q = queues.open(await tempDataDir());
    // Installation 1 has the oldest jobs, on five different issues.
    for (let n = 1; n <= 5; n++) await q.enqueue(newJob({ inst: 1, number: n }));
    for (let n = 1; n <= 3; n++) await q.enqueue(newJob({ inst: 2, number: n }));
    for (let n = 1; n <= 3; n++) await q.enqueue(newJob({ inst: 3, number: n }));

    const claimed = [];
    for (;;) {
      const job = await q.claim("w", LIMITS);
      if (!job) break;
      claimed.push(job);
    }
    expect(claimed.map((j) => `${j.target.installationId}#${j.target.number}`)).toEqual(["1#1", "1#2", "2#1", "2#2"]);

    // A free slot goes to the oldest job whose installation is under its limit.
    await q.finish(claimed[2]!.id, "succeeded", "✅ Done");
    expect((await q.claim("w", LIMITS))?.target).toMatchObject({ installationId: 2, number: 3 });
    await q.finish(claimed[0]!.id, "succeeded", "✅ Done");
    expect((await q.claim("w", LIMITS))?.target).toMatchObject({ installationId: 1, number: 3 });
    expect(await q.claim("w", LIMITS)).toBeUndefined();
    // Other limits are honoured as given.
    expect(await q.claim("w", { ...LIMITS, global: 5 })).toMatchObject({ target: { installationId: 3, number: 1 } });
  });

  it("never lets two queue objects on one file claim the same job", async () => {
    const dir = await tempDataDir();
    const q1 = queues.open(dir);
    const q2 = queues.open(dir);
    const ids = new Set<string>();
    for (let n = 0; n < 120; n++) ids.add((await (n % 2 ? q1 : q2).enqueue(newJob({ number: n, inst: n % 7 }))).job.id);
    const wide = { perInstallation: 1000, global: 1000, leaseMs: 60_000 };
    const claimed: string[] = [];
    // Interleave claims and finishes from both objects, all started before any resolves.
    const workers = [q1, q2, q1, q2].map(async (q, w) => {
      for (;;) {
        const job = await q.claim(`w${w}`, wide);
        if (!job) return;
        claimed.push(job.id);
        await q.finish(job.id, "succeeded", "✅ Done", { workerId: `w${w}`, attempt: job.attempts });
      }
    });
    await Promise.all(workers);
    expect(claimed).toHaveLength(ids.size);
    expect(new Set(claimed)).toEqual(ids);
    for (const job of await q1.listRecent({ limit: 1000 })) expect(job).toMatchObject({ state: "succeeded", attempts: 1 });
  });
});

describe("SqliteQueue: leases, updates and ends", () => {
  it("heartbeats extend only the holder's lease and report a pending cancel", async () => {
    let now = 0;
    const q = queues.open(await tempDataDir(), () => now);
    const { job } = await q.enqueue(newJob());
    await q.claim("w1", { ...LIMITS, leaseMs: 100 });
    const w1 = { workerId: "w1", attempt: 1 };
    now = 80;
    expect(await q.heartbeat(job.id, w1)).toEqual({ held: true, cancelRequested: false });
    expect((await q.get(job.id))?.leaseExpiresAt).toBe(180);
    expect(await q.heartbeat(job.id, { workerId: "w2", attempt: 1 })).toEqual({ held: false, cancelRequested: false });
    now = 150; // past the first lease, within the extended one
    expect(await q.recoverStale()).toEqual({ requeued: [], interrupted: [] });
    await q.requestCancel(targetKey(job.target), "bob");
    expect(await q.heartbeat(job.id, w1)).toEqual({ held: true, cancelRequested: true, cancelledBy: "bob" });
  });

  it("finishes a job once; with a worker id only while that worker holds it", async () => {
    const q = queues.open(await tempDataDir());
    const { job } = await q.enqueue(newJob());
    await q.claim("w1", LIMITS);
    expect(await q.finish(job.id, "succeeded", "✅ Done", { workerId: "w2", attempt: 1 })).toBeUndefined();
    expect(await q.finish(job.id, "succeeded", "✅ Done", { workerId: "w1", attempt: 2 })).toBeUndefined();
    const done = await q.finish(job.id, "succeeded", "✅ Done", { workerId: "w1", attempt: 1 });
    expect(done).toMatchObject({ state: "succeeded", outcome: "✅ Done" });
    expect(done?.finishedAt).toBeTypeOf("number");
    expect(done?.leaseExpiresAt).toBeUndefined();
    expect(await q.finish(job.id, "failed", "❌ Failed: late")).toBeUndefined();
    expect((await q.get(job.id))?.outcome).toBe("✅ Done");
    await expect(q.finish(job.id, "running" as never, "x")).rejects.toThrow(/end state/);
  });

  it("records the progress comment and that agents started (which never goes back)", async () => {
    const q = queues.open(await tempDataDir());
    const { job } = await q.enqueue(newJob());
    expect(await q.update(job.id, { agentsStarted: true })).toMatchObject({ agentsStarted: true });
    expect(await q.update(job.id, { progressCommentId: 11, agentsStarted: false })).toMatchObject({
      agentsStarted: true,
      progressCommentId: 11,
    });
    expect(await q.update("nope", { progressCommentId: 1 })).toBeUndefined();
  });

  it("cancels queued jobs at once and flags the running one", async () => {
    const q = queues.open(await tempDataDir());
    const running = (await q.enqueue(newJob({ number: 3 }))).job;
    const queued = (await q.enqueue(newJob({ number: 3 }))).job;
    const elsewhere = (await q.enqueue(newJob({ number: 4 }))).job;
    await q.claim("w", LIMITS);
    const affected = await q.requestCancel(targetKey(running.target), "bob");
    expect(affected.map((j) => [j.id, j.state, j.cancelRequested ?? false, j.outcome])).toEqual([
      [running.id, "running", true, undefined],
      [queued.id, "cancelled", false, "⏹ Cancelled by @bob"],
    ]);
    expect((await q.get(elsewhere.id))?.state).toBe("queued");
    expect(await q.requestCancel("octo/hello#404")).toEqual([]);
  });

  it("lists recent jobs newest first, filtered", async () => {
    const q = queues.open(await tempDataDir());
    const ids = [];
    for (let n = 0; n < 5; n++) ids.push((await q.enqueue(newJob({ number: n % 2 }))).job.id);
    expect((await q.listRecent({ limit: 2 })).map((j) => j.id)).toEqual([ids[4], ids[3]]);
    expect((await q.listRecent({ targetKey: "octo/hello#1" })).map((j) => j.id)).toEqual([ids[3], ids[1]]);
    await q.claim("w", LIMITS);
    expect((await q.listRecent({ state: "running" })).map((j) => j.id)).toEqual([ids[0]]);
  });
});

describe("SqliteQueue: recovering jobs whose worker died", () => {
  it("requeues a job whose agents had not started once, then fails it as interrupted", async () => {
    let now = 0;
    const q = queues.open(await tempDataDir(), () => now);
    const { job } = await q.enqueue(newJob());
    await q.update(job.id, { progressCommentId: 77 });
    await q.claim("dead", { ...LIMITS, leaseMs: 1000 });
    expect(await q.recoverStale(999)).toEqual({ requeued: [], interrupted: [] });

    const first = await q.recoverStale(1000);
    expect(first.interrupted).toEqual([]);
    expect(first.requeued).toHaveLength(1);
    expect(first.requeued[0]).toMatchObject({ id: job.id, state: "queued", attempts: 1, progressCommentId: 77 });
    expect(first.requeued[0]?.workerId).toBeUndefined();

    now = 2000;
    expect(await q.claim("dead-again", { ...LIMITS, leaseMs: 1000 })).toMatchObject({ id: job.id, attempts: 2 });
    const second = await q.recoverStale(5000);
    expect(second.requeued).toEqual([]);
    expect(second.interrupted).toEqual([
      expect.objectContaining({ id: job.id, state: "failed", outcome: INTERRUPTED_OUTCOME, progressCommentId: 77 }),
    ]);
    expect(await q.claim("w", LIMITS)).toBeUndefined();
  });

  it("fails at once a job whose agents had started, and ends a cancelled one as cancelled", async () => {
    const q = queues.open(await tempDataDir());
    const started = (await q.enqueue(newJob({ number: 1 }))).job;
    const cancelled = (await q.enqueue(newJob({ number: 2 }))).job;
    await q.claim("dead", LIMITS);
    await q.claim("dead", LIMITS);
    await q.update(started.id, { agentsStarted: true });
    await q.requestCancel(targetKey(cancelled.target), "bob");
    const { requeued, interrupted } = await q.recoverStale(Date.now() + LIMITS.leaseMs);
    expect(requeued).toEqual([]);
    expect(interrupted.map((j) => [j.id, j.state, j.outcome])).toEqual([
      [started.id, "failed", INTERRUPTED_OUTCOME],
      [cancelled.id, "cancelled", "⏹ Cancelled by @bob"],
    ]);
  });

  it("takes a restarted worker's jobs for dead without waiting for their lease", async () => {
    const q = queues.open(await tempDataDir());
    const mine = (await q.enqueue(newJob({ number: 1 }))).job;
    const theirs = (await q.enqueue(newJob({ number: 2 }))).job;
    await q.claim("host-a", LIMITS);
    await q.claim("host-b", LIMITS);
    const { requeued, interrupted } = await q.recoverStale(undefined, { deadWorker: "host-a" });
    expect(requeued.map((j) => j.id)).toEqual([mine.id]);
    expect(interrupted).toEqual([]);
    expect((await q.get(theirs.id))?.state).toBe("running");
    // The old holder cannot end or keep the requeued job any more.
    expect(await q.heartbeat(mine.id, { workerId: "host-a", attempt: 1 })).toMatchObject({ held: false });
    expect(await q.finish(mine.id, "succeeded", "✅ Done", { workerId: "host-a", attempt: 1 })).toBeUndefined();
  });

  it("fences a stale run off when the same worker claims the requeued job again", async () => {
    const q = queues.open(await tempDataDir());
    const { job } = await q.enqueue(newJob());
    await q.claim("w", LIMITS);
    await q.recoverStale(undefined, { deadWorker: "w" });
    expect(await q.claim("w", LIMITS)).toMatchObject({ id: job.id, attempts: 2 });
    const stale = { workerId: "w", attempt: 1 };
    const current = { workerId: "w", attempt: 2 };
    expect(await q.heartbeat(job.id, stale)).toMatchObject({ held: false });
    expect(await q.finish(job.id, "failed", "❌ Failed: stale", stale)).toBeUndefined();
    expect(await q.heartbeat(job.id, current)).toMatchObject({ held: true });
    expect(await q.finish(job.id, "succeeded", "✅ Done", current)).toMatchObject({ state: "succeeded" });
  });
});
