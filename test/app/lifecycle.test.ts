import { hostname } from "node:os";
import nock from "nock";
import { describe, expect, it } from "vitest";
import { SqliteQueue } from "../../src/store/sqlite/job-queue.js";
import type { NewJob } from "../../src/queue/types.js";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { tempDir } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { API, gitServer, INSTALLATION_ID, mockInstallationToken, mockJobComments, mockPermission, mockRepoConfig, queuedThenCrashed, REPO_PATH, startStack } from "./harness.js";

useNock();

const newJob = (deliveryId: string): NewJob => ({
  deliveryId,
  kind: "plan",
  target: { installationId: INSTALLATION_ID, owner: "Codertocat", repo: "Hello-World", number: 1, isPullRequest: false },
  trigger: { sender: "Codertocat", request: "", commentId: 1, commentKind: "issue_comment", commentCreatedAt: "2019-05-15T15:20:21Z" },
  repo: { cloneUrl: "https://github.com/Codertocat/Hello-World.git", defaultBranch: "main", private: false },
});

describe("jobs across restarts and cancels", () => {
  it("finalises a job that died with the process when the app starts again", async () => {
    const dataDir = await tempDir("crewbot-data-");
    const before = new SqliteQueue({ dataDir });
    await before.enqueue(newJob("died"));
    const job = (await before.claim(`embedded:${hostname()}`, { perInstallation: 2, global: 4, leaseMs: 60_000 }))!;
    await before.update(job.id, { agentsStarted: true, progressCommentId: 4321 });
    await before.close(); // the process dies here: no finish, lease still valid

    mockInstallationToken();
    const edits: string[] = [];
    nock(API)
      .patch(`${REPO_PATH}/issues/comments/4321`, (b) => (edits.push(b.body), true))
      .reply(200, {});
    const stack = await startStack([], { dataDir });
    const ended = await stack.waitFor(job.id);
    for (let i = 0; i < 100 && edits.length === 0; i++) await new Promise((r) => setTimeout(r, 50));

    expect(ended).toMatchObject({ state: "failed", outcome: "❌ Failed: interrupted" });
    expect(edits).toHaveLength(1);
    expect(edits[0]).toMatch(new RegExp(`^❌ Failed: interrupted · .*\\n<!-- crewbot:job:${job.id} -->`));
  });

  it("ends a spinning comment whose id was never stored: the finaliser finds it by its marker", async () => {
    const dataDir = await tempDir("crewbot-data-");
    const before = new SqliteQueue({ dataDir });
    await before.enqueue(newJob("died-unstored"));
    const job = (await before.claim(`embedded:${hostname()}`, { perInstallation: 2, global: 4, leaseMs: 60_000 }))!;
    // The agents had started (so the job is not run again) when the process died; the comment's id was never stored.
    await before.update(job.id, { agentsStarted: true });
    await before.close();

    mockInstallationToken();
    const marker = `<!-- crewbot:job:${job.id} -->`;
    const edits: string[] = [];
    nock(API)
      .get(`${REPO_PATH}/issues/1/comments`)
      .query((q) => q.since !== undefined)
      .reply(200, [
        { id: 6003, body: `> ${marker}`, user: { login: "mallory", type: "User" }, created_at: "2019-05-15T15:21:00Z", updated_at: "2019-05-15T15:21:00Z" },
        { id: 7002, body: `⏳ Scouting · 3s\n${marker}`, user: { login: "crewbot[bot]", type: "Bot" }, created_at: "2019-05-15T15:21:01Z", updated_at: "2019-05-15T15:21:01Z" },
      ])
      .patch(`${REPO_PATH}/issues/comments/7002`, (b) => (edits.push(b.body), true))
      .reply(200, {});
    const stack = await startStack([], { dataDir });
    const ended = await stack.waitFor(job.id);
    for (let i = 0; i < 100 && edits.length === 0; i++) await new Promise((r) => setTimeout(r, 50));

    expect(ended).toMatchObject({ state: "failed", outcome: "❌ Failed: interrupted" });
    expect(edits).toHaveLength(1);
    expect(edits[0]).toMatch(new RegExp(`^❌ Failed: interrupted · .*\\n${marker}`));
  });

  it("finds the comment an attempt posted just before its process died by its marker, and edits it instead of posting another", async () => {
    const dataDir = await tempDir("crewbot-data-");
    const { git, cloneUrl } = await gitServer({ "README.md": "# Hello\n" });
    const before = new SqliteQueue({ dataDir });
    const queued = await before.enqueue({ ...newJob("posted-then-died"), repo: { cloneUrl, defaultBranch: "main", private: false } });
    const job = (await before.claim(`embedded:${hostname()}`, { perInstallation: 2, global: 4, leaseMs: 60_000 }))!;
    expect(job.id).toBe(queued.job.id);
    // The first attempt posted its progress comment (id 7001) and died before storing the id.
    await before.close();

    mockInstallationToken();
    mockRepoConfig();
    const marker = `<!-- crewbot:job:${job.id} -->`;
    const searches: Array<Record<string, string>> = [];
    const edits: string[] = [];
    nock(API)
      .get(`${REPO_PATH}/issues/1/comments`)
      .query((q) => (q.since !== undefined ? (searches.push(q as Record<string, string>), true) : false))
      .reply(200, [
        // Someone quoting the marker is not crewbot.
        { id: 6001, body: `> ⏳ Starting\n> ${marker}\nwhat is this?`, user: { login: "mallory", type: "User" }, created_at: "2019-05-15T15:21:00Z", updated_at: "2019-05-15T15:21:00Z" },
        { id: 6002, body: "⏳ Starting\n<!-- crewbot:job:some-other-job -->", user: { login: "crewbot[bot]", type: "Bot" }, created_at: "2019-05-15T15:21:00Z", updated_at: "2019-05-15T15:21:00Z" },
        { id: 7001, body: `⏳ Starting · 0s\n${marker}`, user: { login: "crewbot[bot]", type: "Bot" }, created_at: "2019-05-15T15:21:01Z", updated_at: "2019-05-15T15:21:01Z" },
      ])
      .get(`${REPO_PATH}/issues/1/comments`)
      .query({ per_page: 100 })
      .reply(200, [])
      .patch(`${REPO_PATH}/issues/comments/7001`, (b) => (edits.push(b.body), true))
      .times(1)
      .reply(200, {})
      .patch(`${REPO_PATH}/issues/comments/7001`, (b) => (edits.push(b.body), true))
      .times(6)
      .optionally()
      .reply(200, {});
    const stack = await startStack([{ text: "Scout report: nothing to see." }, { text: "## Goal\nG.\n\n## Plan\n1. Do it\n\n## Risks\nNone." }], { dataDir });
    const ended = await stack.waitFor(job.id);
    await stack.crewbot.background.idle();
    await git.close();

    expect(ended).toMatchObject({ state: "succeeded", attempts: 2, progressCommentId: 7001 });
    expect(searches).toEqual([{ since: new Date(Math.floor(job.createdAt / 1000) * 1000).toISOString().replace(".000Z", "Z"), per_page: "100", page: "1" }]);
    expect(searches[0]!.since).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // No second comment (nock refuses any POST), no second 👀: the one comment is edited to its end.
    expect(edits[0]).toMatch(new RegExp(`^⏳ Starting · .*\\n${marker}`));
    expect(edits.at(-1)).toMatch(/^✅ Done · /);
  });

  it("a /plan whose process died after its \"⏳ Queued behind\" comment was posted, before its id was stored: the run takes that comment over to its end, never a second one", async () => {
    const { git, cloneUrl } = await gitServer({ "README.md": "# Hello\n" });
    const { job, dataDir, body } = await queuedThenCrashed(issueCommentCreated("/plan", { cloneUrl, defaultBranch: "main" }), "queued-then-died", 8801);
    expect(job.progressCommentId).not.toBe(8801);

    mockInstallationToken();
    mockPermission("Codertocat", "write"); // a new process asks again
    mockRepoConfig();
    const edits: string[] = [];
    nock(API)
      .get(`${REPO_PATH}/issues/1/comments`)
      .query((q) => q.since !== undefined)
      .reply(200, [{ id: 8801, body, user: { login: "crewbot[bot]", type: "Bot" }, created_at: "2019-05-15T15:21:01Z", updated_at: "2019-05-15T15:21:01Z" }])
      .get(`${REPO_PATH}/issues/1/comments`)
      .query({ per_page: 100 })
      .reply(200, [])
      .patch(`${REPO_PATH}/issues/comments/8801`, (b) => (edits.push(b.body), true))
      .reply(200, {})
      .patch(`${REPO_PATH}/issues/comments/8801`, (b) => (edits.push(b.body), true))
      .times(6)
      .optionally()
      .reply(200, {});
    // No 👀 again and no second comment: nock refuses any POST.
    const stack = await startStack([{ text: "Scout report: nothing to see." }, { text: "## Goal\nG.\n\n## Plan\n1. Do it\n\n## Risks\nNone." }], { dataDir });
    const ended = await stack.waitFor(job.id);
    await stack.crewbot.background.idle();
    await git.close();

    expect(ended).toMatchObject({ state: "succeeded", progressCommentId: 8801 });
    expect(edits.at(-1)).toMatch(new RegExp(`^✅ Done · .*\\n<!-- crewbot:job:${job.id} -->`));
  });

  it("cancels a running job through its signal and says so in its comment", async () => {
    // The scout's reply never comes; the cancel must end the job anyway.
    const stack = await startStack([{ text: "late", delay: 60_000 }]);
    const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockPermission("Codertocat", "admin"); // asked once: the job reuses the trigger's answer
    const edits: string[] = [];
    mockJobComments({ progressId: 9002, edits, trigger: { id: payload.comment.id } });

    await stack.probot.receive({ id: "run-then-cancel", name: "issue_comment", payload } as never);
    const [job] = await stack.crewbot.queue.listRecent();
    for (let i = 0; i < 200 && stack.fake.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(stack.fake.requests).toHaveLength(1); // the scout is waiting for the model

    await stack.probot.receive({ id: "cancel-it", name: "issue_comment", payload: issueCommentCreated("/crewbot cancel") } as never);
    const ended = await stack.waitFor(job!.id);
    await stack.crewbot.background.idle();
    expect(ended.state).toBe("cancelled");
    expect(edits.at(-1)).toMatch(/^⏹ Cancelled by @\u200BCodertocat · /);
  });
});
