import nock from "nock";
import { describe, expect, it } from "vitest";
import { GitHubWriter } from "../../src/report/github-writer.js";
import { ProgressReporter } from "../../src/report/progress-reporter.js";
import { initialProgress } from "../../src/report/progress-state.js";
import { renderProgress } from "../../src/report/render.js";
import type { ProgressState } from "../../src/report/types.js";
import { API, fakeClock, manualClock, newOctokit, useNock } from "../helpers/github.js";

useNock();

const COMMENTS = "/repos/o/r/issues/7/comments";
const COMMENT = "/repos/o/r/issues/comments/500";

const state = (turn: number, extra: Partial<ProgressState> = {}): ProgressState =>
  initialProgress("job-1", "plan", { agent: "scout", step: { index: 1, total: 2 }, turn, toolCalls: turn * 2, elapsedMs: turn * 1000, ...extra });
const final = state(10, { terminal: { kind: "done" } });

function setup(options: { commentId?: number } = {}) {
  const clock = fakeClock();
  const logs: string[] = [];
  const log = { warn: (m: string) => logs.push(`warn: ${m}`), error: (m: string) => logs.push(`error: ${m}`) };
  const writer = new GitHubWriter({ octokit: newOctokit(), clock, log });
  const reporter = new ProgressReporter({ writer, target: { owner: "o", repo: "r", number: 7 }, jobId: "job-1", clock, log, commentId: options.commentId });
  return { clock, writer, reporter, logs };
}

/** Records the bodies of every edit of comment 500. */
function recordEdits(times: number, status = 200) {
  const bodies: string[] = [];
  nock(API)
    .patch(COMMENT)
    .times(times)
    .reply(status, (_uri, body) => {
      bodies.push((body as { body: string }).body);
      return { id: 500 };
    });
  return bodies;
}

function expectPost(body: string, id = 500) {
  nock(API).post(COMMENTS, { body }).reply(201, { id });
}

describe("ProgressReporter", () => {
  it.each([
    ["issue_comment", "/repos/o/r/issues/comments/11/reactions"],
    ["review_comment", "/repos/o/r/pulls/comments/11/reactions"],
  ] as const)("puts 👀 on an %s", async (kind, path) => {
    const { reporter } = setup();
    nock(API).post(path, { content: "eyes" }).reply(201, { id: 1, content: "eyes" });
    await reporter.acknowledge({ commentId: 11, kind });
  });

  it("a failed reaction is logged, not thrown", async () => {
    const { reporter, logs } = setup();
    nock(API).post("/repos/o/r/issues/comments/11/reactions").reply(404, { message: "Not Found" });
    await reporter.acknowledge({ commentId: 11, kind: "issue_comment" });
    expect(logs).toEqual([expect.stringMatching(/^warn: job job-1: could not add the 👀 reaction/)]);
  });

  it("posts the progress comment and returns its id", async () => {
    const { reporter } = setup();
    expectPost(renderProgress(state(0)));
    expect(await reporter.start(state(0))).toBe(500);
    expect(reporter.commentId).toBe(500);
  });

  it("edits an existing progress comment instead of posting another", async () => {
    const { reporter } = setup({ commentId: 500 });
    const bodies = recordEdits(1);
    expect(await reporter.start(state(0))).toBe(500);
    expect(bodies).toEqual([renderProgress(state(0))]);
  });

  it("posts a new comment when the existing one was deleted", async () => {
    const { reporter } = setup({ commentId: 500 });
    nock(API).patch(COMMENT).reply(404, { message: "Not Found" });
    expectPost(renderProgress(state(0)), 501);
    expect(await reporter.start(state(0))).toBe(501);
  });

  it("a failed post is logged and the job goes on", async () => {
    const { reporter, logs } = setup();
    nock(API).post(COMMENTS).reply(422, { message: "Validation Failed" });
    expect(await reporter.start(state(0))).toBeUndefined();
    reporter.update(state(1)); // nowhere to edit: dropped
    await reporter.idle();
    expect(logs).toEqual([expect.stringMatching(/^warn: job job-1: could not post the progress comment/)]);
  });

  /** A state as the comment shows it after waiting `waitedMs` for its edit: the elapsed time goes on. */
  const shown = (st: ProgressState, waitedMs: number) => renderProgress({ ...st, elapsedMs: st.elapsedMs + waitedMs });

  it("turns 10 rapid updates into 1 edit, 10 s after the post, with the last state", async () => {
    const { reporter, clock } = setup();
    expectPost(renderProgress(state(0)));
    await reporter.start(state(0));
    const bodies = recordEdits(1);
    const startedAt = clock.now();
    for (let turn = 1; turn <= 10; turn += 1) reporter.update(state(turn));
    await reporter.idle();
    // The fake clock's sleep moves time at once: updates 2–10 arrive when the interval has passed.
    expect(bodies).toEqual([renderProgress(state(10))]);
    expect(clock.now() - startedAt).toBe(10_000); // CREWBOT_EDIT_INTERVAL_S's default
    expect(reporter.edits).toBe(1);
  });

  it("spaces edits the edit interval apart while updates keep coming", async () => {
    const { clock, writer } = setup();
    const reporter = new ProgressReporter({ writer, target: { owner: "o", repo: "r", number: 7 }, jobId: "job-1", clock, commentId: 500, editIntervalMs: 30_000 });
    const bodies = recordEdits(3);
    await reporter.start(state(0));
    const times: number[] = [];
    for (let turn = 1; turn <= 2; turn += 1) {
      reporter.update(state(turn));
      await reporter.idle();
      times.push(clock.now());
    }
    expect(bodies).toEqual([renderProgress(state(0)), shown(state(1), 30_000), shown(state(2), 30_000)]);
    expect(times[1]! - times[0]!).toBe(30_000);
  });

  it("does not edit when the body did not change", async () => {
    const { reporter } = setup();
    expectPost(renderProgress(state(1)));
    await reporter.start(state(1));
    reporter.update(state(1));
    await reporter.idle();
  });

  it("makes no edit when only the clock moved, however long", async () => {
    const { reporter, clock, writer } = setup();
    expectPost(renderProgress(state(1)));
    await reporter.start(state(1));
    for (let i = 1; i <= 100; i += 1) {
      clock.advance(15_000);
      reporter.update(state(1, { elapsedMs: 1000 + i * 15_000 }));
    }
    await reporter.idle();
    expect(writer.writes).toBe(1); // the post alone: nock fails the test on any edit
    expect(reporter.edits).toBe(0);
  });

  it("shows the elapsed time of now in an edit made for another reason", async () => {
    const { reporter, clock } = setup();
    expectPost(renderProgress(state(1)));
    await reporter.start(state(1));
    clock.advance(60_000);
    reporter.update(state(1, { elapsedMs: 61_000 })); // the clock alone: nothing
    clock.advance(60_000);
    const bodies = recordEdits(1);
    reporter.update(state(2, { elapsedMs: 121_000 })); // a new turn: edited at once (the interval has passed)
    await reporter.idle();
    expect(bodies).toEqual([renderProgress(state(2, { elapsedMs: 121_000 }))]);
    expect(bodies[0]).toContain("2m 01s");
  });

  it("a change undone before its edit is sent makes no edit", async () => {
    const { reporter } = setup();
    expectPost(renderProgress(state(1)));
    await reporter.start(state(1));
    reporter.update(state(2));
    reporter.update(state(1, { elapsedMs: 5000 })); // back to what is shown, the clock aside
    await reporter.idle();
    expect(reporter.edits).toBe(0);
  });

  it("finish right after an update sends only the final body, at once", async () => {
    const clock = manualClock();
    const writer = new GitHubWriter({ octokit: newOctokit(), clock });
    const reporter = new ProgressReporter({ writer, target: { owner: "o", repo: "r", number: 7 }, jobId: "job-1", clock });
    expectPost(renderProgress(state(0)));
    await reporter.start(state(0));
    await clock.advance(1500); // the writer's 1 s spacing has passed, the 10 s edit interval has not
    const bodies = recordEdits(1);
    reporter.update(state(1));
    expect(clock.waiting).toBe(1); // the coalesced edit waits
    expect(await reporter.finish(final)).toBe(true); // …and the final one did not wait for it
    expect(bodies).toEqual([renderProgress(final)]);
    await clock.advance(10_000);
    await reporter.idle();
    expect(bodies).toEqual([renderProgress(final)]);
  });

  it("finish is never overtaken by an edit already on its way", async () => {
    const { reporter, clock } = setup();
    expectPost(renderProgress(state(0)));
    await reporter.start(state(0));
    clock.advance(10_000); // the next update goes out at once
    const bodies: string[] = [];
    nock(API)
      .patch(COMMENT)
      .delay(50)
      .reply(200, (_uri, body) => (bodies.push((body as { body: string }).body), { id: 500 }));
    nock(API)
      .patch(COMMENT)
      .reply(200, (_uri, body) => (bodies.push((body as { body: string }).body), { id: 500 }));
    reporter.update(state(1));
    await new Promise((resolve) => setImmediate(resolve));
    const done = reporter.finish(final);
    reporter.update(state(2)); // after finish: ignored
    expect(await done).toBe(true);
    expect(await reporter.finish(state(3, { terminal: { kind: "cancelled" } }))).toBe(true); // idempotent, sends nothing
    await reporter.idle();
    expect(bodies).toEqual([renderProgress(state(1)), renderProgress(final)]);
  });

  it("a progress edit still waiting for the writer is dropped by the final edit, not sent after it", async () => {
    const { reporter, clock, writer, logs } = setup();
    expectPost(renderProgress(state(0)));
    await reporter.start(state(0));
    clock.advance(10_000);
    // Another job's reply holds the installation's writer while this job's edit is queued.
    nock(API).post("/repos/o/r/issues/9/comments").delay(50).reply(201, { id: 9 });
    const reply = reporter.reply(9, "queued");
    reporter.update(state(1));
    await new Promise((resolve) => setImmediate(resolve));
    const bodies = recordEdits(1);
    expect(await reporter.finish(final)).toBe(true);
    await reply;
    await reporter.idle();
    expect(bodies).toEqual([renderProgress(final)]);
    expect(writer.writes).toBe(3);
    expect(logs).toEqual([]);
  });

  it("retries a failed final edit, then succeeds", async () => {
    const { reporter, clock } = setup({ commentId: 500 });
    recordEdits(1); // start
    await reporter.start(state(0));
    nock(API).patch(COMMENT).times(2).reply(502, { message: "Bad Gateway" });
    const bodies = recordEdits(1);
    expect(await reporter.finish(final)).toBe(true);
    expect(bodies).toEqual([renderProgress(final)]);
    expect(clock.sleeps.filter((ms) => ms === 5000)).toHaveLength(2);
  });

  // A timeout far below the real waits (a 10 s interval, a 5 s retry): they run on the writer's clock.
  it("given no clock, waits its edit interval and its final retry on its writer's clock", { timeout: 2000 }, async () => {
    const clock = fakeClock();
    const writer = new GitHubWriter({ octokit: newOctokit(), clock });
    const reporter = new ProgressReporter({ writer, target: { owner: "o", repo: "r", number: 7 }, jobId: "job-1", commentId: 500 });
    recordEdits(1); // start
    await reporter.start(state(0));
    const progress = recordEdits(1);
    reporter.update(state(1));
    await reporter.idle();
    expect(progress).toHaveLength(1);
    nock(API).patch(COMMENT).reply(502, { message: "Bad Gateway" });
    const bodies = recordEdits(1);
    expect(await reporter.finish(final)).toBe(true);
    expect(bodies).toEqual([renderProgress(final)]);
    expect(clock.sleeps).toContain(10_000);
    expect(clock.sleeps).toContain(5000);
  });

  it("logs a final edit that keeps failing, with the job id, and does not throw", async () => {
    const { reporter, logs } = setup({ commentId: 500 });
    recordEdits(1);
    await reporter.start(state(0));
    nock(API).patch(COMMENT).times(3).reply(500, { message: "Server Error" });
    expect(await reporter.finish(final)).toBe(false);
    expect(logs).toEqual([expect.stringMatching(/^error: job job-1: the final progress edit failed after 3 attempt\(s\)/)]);
  });

  it("does not retry a final edit GitHub rejects as invalid", async () => {
    const { reporter, logs } = setup({ commentId: 500 });
    recordEdits(1);
    await reporter.start(state(0));
    nock(API).patch(COMMENT).reply(422, { message: "Validation Failed" });
    expect(await reporter.finish(final)).toBe(false);
    expect(logs).toHaveLength(1);
  });

  it("posts the final state when the progress comment is gone, or was never posted", async () => {
    const { reporter } = setup({ commentId: 500 });
    recordEdits(1);
    await reporter.start(state(0));
    nock(API).patch(COMMENT).reply(404, { message: "Not Found" });
    expectPost(renderProgress(final), 502);
    expect(await reporter.finish(final)).toBe(true);
    expect(reporter.commentId).toBe(502);

    const other = setup();
    nock(API).post(COMMENTS, { body: renderProgress(final) }).reply(201, { id: 503 });
    expect(await other.reporter.finish(final)).toBe(true);
  });

  it("a failed progress edit is logged and later updates still go out", async () => {
    const { reporter, logs } = setup({ commentId: 500 });
    recordEdits(1);
    await reporter.start(state(0));
    nock(API).patch(COMMENT).reply(500, { message: "Server Error" });
    reporter.update(state(1));
    await reporter.idle();
    const bodies = recordEdits(1);
    reporter.update(state(2));
    await reporter.idle();
    expect(bodies).toEqual([shown(state(2), 10_000)]);
    expect(logs).toEqual([expect.stringMatching(/^warn: job job-1: progress edit failed/)]);
  });

  it("a final edit answered 401 is sent again with a new token, so the comment does not stay spinning", async () => {
    const clock = fakeClock();
    let refreshed = 0;
    const writer = new GitHubWriter({ octokit: newOctokit(), clock, refreshAuth: async () => void (refreshed += 1) });
    const reporter = new ProgressReporter({ writer, target: { owner: "o", repo: "r", number: 7 }, jobId: "job-1", clock, commentId: 500 });
    recordEdits(1);
    await reporter.start(state(0));
    nock(API).patch(COMMENT).reply(401, { message: "Bad credentials" });
    const bodies = recordEdits(1);
    expect(await reporter.finish(final)).toBe(true);
    expect(bodies).toEqual([renderProgress(final)]);
    expect(refreshed).toBe(1);
  });

  it("replies through the writer", async () => {
    const { reporter, writer } = setup();
    nock(API).post("/repos/o/r/issues/9/comments", { body: "queued" }).reply(201, { id: 77 });
    expect(await reporter.reply(9, "queued")).toBe(77);
    expect(writer.writes).toBe(1);
  });

  it("edits the comment id given to start (a queued job's comment)", async () => {
    const { reporter } = setup();
    const bodies = recordEdits(1);
    expect(await reporter.start(state(0, { queuedBehind: "job-0" }), 500)).toBe(500);
    expect(bodies).toEqual([renderProgress(state(0, { queuedBehind: "job-0" }))]);
  });
});
