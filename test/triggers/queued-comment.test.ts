/**
 * The "⏳ Queued behind …" comment against a job that moves on while the comment is being posted:
 * the job is marked before the post, the id is stored only while the job still waits, and a job
 * that started or ended meanwhile keeps exactly one comment, never one left "queued".
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { JobQueue } from "../../src/queue/job-queue.js";
import { COMMENT_BEING_POSTED, type JobRecord } from "../../src/queue/types.js";
import { type Clock, GitHubWriter } from "../../src/report/github-writer.js";
import { RedisQueue } from "../../src/store/redis/job-queue.js";
import { SqliteQueue } from "../../src/store/sqlite/job-queue.js";
import { announceQueued } from "../../src/triggers/queued-comment.js";
import { LIMITS, newJob, redisPrefixFor, tempDataDir } from "../queue/helpers.js";
import { startRedis } from "../queue/redis-server.js";
import { fakeClock } from "../helpers/github.js";

const server = await startRedis();
afterAll(() => server.stop());

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const POSTED = 555;

const stores: Array<[string, (dataDir: string) => JobQueue]> = [
  ["SQLite", (dataDir) => new SqliteQueue({ dataDir })],
  ["Redis", (dataDir) => new RedisQueue({ url: server.url, prefix: redisPrefixFor(dataDir) })],
];

let queue: JobQueue;
afterEach(async () => queue?.close());

/** Two jobs on one issue, the second waiting behind the first (running elsewhere). */
async function waiting(open: (dataDir: string) => JobQueue): Promise<{ ahead: JobRecord; job: JobRecord }> {
  queue = open(await tempDataDir());
  const { job: ahead } = await queue.enqueue(newJob());
  await queue.claim("elsewhere", LIMITS);
  const { job, waitingBehind } = await queue.enqueue(newJob());
  expect(waitingBehind).toBe(ahead.id);
  return { ahead, job };
}

/** A writer that records every write; `onPost` runs while GitHub takes the queued comment. */
function recordingWriter(onPost: () => Promise<void> = async () => undefined, clock?: Clock) {
  const writes: Array<{ route: string; params: Record<string, unknown> }> = [];
  const octokit = {
    request: async (route: string, params: Record<string, unknown> = {}) => {
      writes.push({ route, params });
      if (route === "POST /repos/{owner}/{repo}/issues/{issue_number}/comments") {
        await onPost();
        return { status: 201, headers: {}, data: { id: POSTED } };
      }
      return { status: 200, headers: {}, data: {} };
    },
  };
  return { writer: new GitHubWriter({ octokit, clock }), writes };
}

const routes = (writes: Array<{ route: string }>) => writes.map((w) => w.route);

describe.each(stores)("the queued comment, on %s", (_name, open) => {
  it("is marked on the job before it is posted, and its id stored while the job waits", async () => {
    const { job, ahead } = await waiting(open);
    let during: number | undefined;
    const { writer, writes } = recordingWriter(async () => void (during = (await queue.get(job.id))?.progressCommentId));
    await announceQueued(job, ahead.id, writer, { queue, publicUrl: "https://crewbot.example.com", log: silent });
    expect(during).toBe(COMMENT_BEING_POSTED);
    expect((await queue.get(job.id))?.progressCommentId).toBe(POSTED);
    expect(routes(writes)).toEqual(["POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions", "POST /repos/{owner}/{repo}/issues/{issue_number}/comments"]);
  });

  it("of a job that started meanwhile with a comment of its own is deleted: one comment per job", async () => {
    const { job, ahead } = await waiting(open);
    const { writer, writes } = recordingWriter(async () => {
      // The job ahead ends, this one starts and posts its own comment before the queued one is back.
      await queue.finish(ahead.id, "succeeded", "✅ Done");
      expect((await queue.claim("w", LIMITS))?.id).toBe(job.id);
      await queue.update(job.id, { progressCommentId: 777 });
    });
    await announceQueued(job, ahead.id, writer, { queue, publicUrl: "https://crewbot.example.com", log: silent });
    expect((await queue.get(job.id))?.progressCommentId).toBe(777);
    expect(writes.at(-1)).toEqual({ route: "DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}", params: { owner: "Octo", repo: "Hello", comment_id: POSTED } });
  });

  it("of a job that started meanwhile and took it over (found by its marker) is left to the job", async () => {
    const { job, ahead } = await waiting(open);
    const { writer, writes } = recordingWriter(async () => {
      await queue.finish(ahead.id, "succeeded", "✅ Done");
      await queue.claim("w", LIMITS);
      await queue.update(job.id, { progressCommentId: POSTED });
    });
    await announceQueued(job, ahead.id, writer, { queue, publicUrl: "https://crewbot.example.com", log: silent });
    expect((await queue.get(job.id))?.progressCommentId).toBe(POSTED);
    expect(routes(writes)).not.toContain("DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}");
    expect(routes(writes).at(-1)).toBe("POST /repos/{owner}/{repo}/issues/{issue_number}/comments");
  });

  // A timeout far below the nine real seconds: the looks are spaced on the writer's clock.
  it("of a job that started and stored no comment is looked at ten times, a second apart on the writer's clock, then left", { timeout: 3000 }, async () => {
    const { job, ahead } = await waiting(open);
    const clock = fakeClock();
    let writeSpacing = 0;
    const { writer, writes } = recordingWriter(async () => {
      await queue.finish(ahead.id, "succeeded", "✅ Done");
      expect((await queue.claim("w", LIMITS))?.id).toBe(job.id);
      writeSpacing = clock.sleeps.length; // the waits before the post were the writes' spacing
    }, clock);
    await announceQueued(job, ahead.id, writer, { queue, publicUrl: "https://crewbot.example.com", log: silent });
    expect(clock.sleeps.slice(writeSpacing)).toEqual(Array(9).fill(1000));
    expect((await queue.get(job.id))?.progressCommentId).toBe(COMMENT_BEING_POSTED);
    expect(routes(writes).at(-1)).toBe("POST /repos/{owner}/{repo}/issues/{issue_number}/comments");
  });

  it("of a job cancelled while it was posted is ended as cancelled, not left queued", async () => {
    const { job, ahead } = await waiting(open);
    const { writer, writes } = recordingWriter(async () => void (await queue.requestCancel(job.target.owner.toLowerCase() + "/hello#1", "alice")));
    await announceQueued(job, ahead.id, writer, { queue, publicUrl: "https://crewbot.example.com", log: silent });
    const edit = writes.at(-1)!;
    expect(edit.route).toBe("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}");
    expect(edit.params.comment_id).toBe(POSTED);
    expect(edit.params.body).toMatch(new RegExp(`^⏹ Cancelled by @\u200Balice · .*\\n<!-- crewbot:job:${job.id} -->`));
  });
});
