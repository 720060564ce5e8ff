import { afterEach, describe, expect, it } from "vitest";
import { targetKey } from "../../src/queue/types.js";
import type { JobWait } from "../../src/queue/wait.js";
import { LIMITS, Queues, newJob, tempDataDir } from "./helpers.js";

const queues = new Queues();
afterEach(() => queues.closeAll());

const wait = (over: Partial<JobWait> = {}): JobWait => ({
  question: "Which database?",
  options: ["SQLite", "Postgres"],
  asker: "alice",
  commentId: 77,
  askedAt: 1_000,
  expiresAt: 90_000,
  resume: { step: 1, messages: [{ role: "user", content: [] }], filesRead: [] },
  ...over,
});

describe("JobQueue: a job waiting for its requester's answer", () => {
  it("pauses the holder's job: queued until the wait expires, slot freed, wait stored as plain JSON", async () => {
    let now = 1_000;
    const q = queues.open(await tempDataDir(), () => now);
    const { job } = await q.enqueue(newJob());
    await q.update(job.id, { progressCommentId: 9, agentsStarted: true });
    await q.claim("w", LIMITS);
    const holder = { workerId: "w", attempt: 1 };
    const paused = await q.pause(job.id, holder, wait(), "⏳ Waiting for @alice");
    expect(paused).toMatchObject({ state: "queued", runAt: 90_000, attempts: 0, outcome: "⏳ Waiting for @alice", progressCommentId: 9 });
    expect(paused?.wait).toEqual(wait());
    expect(paused?.workerId).toBeUndefined();
    expect(await q.count("running")).toBe(0);
    expect(await q.heartbeat(job.id, holder)).toMatchObject({ held: false });
    // Another job on the same installation and target runs while it waits.
    const other = await q.enqueue({ ...newJob(), deliveryId: "d-other" });
    expect(await q.claim("w", { ...LIMITS, perInstallation: 1 })).toMatchObject({ id: other.job.id });
    await q.finish(other.job.id, "succeeded", "✅ Done");
    expect(await q.claim("w", LIMITS)).toBeUndefined();
    expect(await q.nextRunAt()).toBe(90_000);
    expect((await q.get(job.id))?.wait).toEqual(wait());
  });

  it("takes one answer, makes the job due now, and refuses a second one", async () => {
    let now = 1_000;
    const q = queues.open(await tempDataDir(), () => now);
    const { job } = await q.enqueue(newJob());
    await q.claim("w", LIMITS);
    await q.pause(job.id, { workerId: "w", attempt: 1 }, wait(), "⏳ Waiting for @alice");
    now = 5_000;
    const answered = await q.answer(job.id, { by: "alice", text: "Postgres", option: 2, at: now });
    expect(answered).toMatchObject({ state: "queued", runAt: 5_000, wait: { answer: { by: "alice", text: "Postgres", option: 2, at: 5_000 } } });
    expect(await q.answer(job.id, { by: "bob", text: "SQLite", option: 1, at: now })).toBeUndefined();
    const claimed = await q.claim("w2", LIMITS);
    expect(claimed).toMatchObject({ id: job.id, attempts: 1, wait: { question: "Which database?", answer: { by: "alice" } } });
    // Running: an answer now changes nothing.
    expect(await q.answer(job.id, { by: "carol", text: "x", at: now })).toBeUndefined();
    // A second question clears the first answer.
    const again = await q.pause(job.id, { workerId: "w2", attempt: 1 }, wait({ question: "And the port?", askedAt: 5_000 }), "⏳ Waiting for @alice");
    expect(again?.wait?.answer).toBeUndefined();
    expect(await q.answer(job.id, { by: "alice", text: "5432", at: now })).toMatchObject({ wait: { question: "And the port?", answer: { text: "5432" } } });
  });

  it("answers nothing on a job with no wait, an ended one or an unknown id", async () => {
    const q = queues.open(await tempDataDir());
    const { job } = await q.enqueue(newJob());
    const answer = { by: "alice", text: "x", at: 1 };
    expect(await q.answer(job.id, answer)).toBeUndefined();
    expect(await q.answer("nosuchjob", answer)).toBeUndefined();
    await q.claim("w", LIMITS);
    await q.pause(job.id, { workerId: "w", attempt: 1 }, wait(), "⏳ Waiting for @alice");
    await q.requestCancel(targetKey(job.target), "alice");
    expect(await q.get(job.id)).toMatchObject({ state: "cancelled", outcome: "⏹ Cancelled by @alice" });
    expect(await q.answer(job.id, answer)).toBeUndefined();
    await expect(q.answer(job.id, { by: "", text: "x", at: 1 })).rejects.toThrow(/answer/);
  });

  it("ends a job cancelled while it ran instead of pausing it; a lost holder pauses nothing", async () => {
    const q = queues.open(await tempDataDir());
    const { job } = await q.enqueue(newJob());
    await q.claim("w", LIMITS);
    expect(await q.pause(job.id, { workerId: "w", attempt: 9 }, wait(), "⏳ Waiting for @alice")).toBeUndefined();
    await q.requestCancel(targetKey(job.target), "bob");
    expect(await q.pause(job.id, { workerId: "w", attempt: 1 }, wait(), "⏳ Waiting for @alice")).toMatchObject({
      state: "cancelled",
      outcome: "⏹ Cancelled by @bob",
    });
    await expect(q.pause(job.id, { workerId: "w", attempt: 1 }, { ...wait(), answer: { by: "a", text: "b", at: 1 } }, "x")).rejects.toThrow(/wait/);
  });

  it("keeps a waiting job across a reopen of the store", async () => {
    const dir = await tempDataDir();
    const q = queues.open(dir);
    const { job } = await q.enqueue(newJob());
    await q.claim("w", LIMITS);
    await q.pause(job.id, { workerId: "w", attempt: 1 }, wait(), "⏳ Waiting for @alice");
    await q.close();
    const reopened = queues.open(dir);
    expect(await reopened.get(job.id)).toMatchObject({ state: "queued", wait: wait() });
  });
});
