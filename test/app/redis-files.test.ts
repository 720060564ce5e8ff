/**
 * Scale-out with no shared volume: the app and two workers on one Redis, each with its own data dir.
 * A /plan's scout writes a scratch file and runs a long command (its whole output an artifact), the
 * planner asks a question; the worker that ran it stops, and the other worker resumes the job with
 * the scratch file the first one wrote. The transcript's artifact and scratch links open from the
 * app, which ran nothing.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import nock from "nock";
import { describe, expect, it } from "vitest";
import { start, type Started } from "../../src/main.js";
import { startWorker, type StartedWorker } from "../../src/worker.js";
import type { JobRecord } from "../../src/queue/types.js";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { freePort, signWebhook } from "../helpers/app-stand-ins.js";
import { startFakeAnthropic } from "../helpers/fake-anthropic.js";
import { tempDir } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { API, gitServer, mockInstallationToken, mockJobComments, mockPermission, mockRepoConfig, REPO_PATH, stackEnv, TestOctokit, WEBHOOK_SECRET, useRedisStack } from "./harness.js";

useNock();

const { redisUrl, stops } = useRedisStack();

const RUNNER = { pollMs: 50, leaseMs: 4000, heartbeatMs: 500 };
const use = (name: string, input: unknown, id: string) => ({ type: "tool_use" as const, id, name, input });
const PLAN = "## Goal\nStore it.\n\n## Plan\n1. Add the Postgres store\n\n## Risks\nNone.";
const PUBLIC = { repo: "transcripts:\n  public: true\n" };

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const got = await probe();
    if (got !== undefined) return got;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never: ${what}`);
}

async function post(port: number, payload: unknown, id: string): Promise<void> {
  const body = JSON.stringify(payload);
  const headers = { "content-type": "application/json", "x-github-event": "issue_comment", "x-github-delivery": id, "x-hub-signature-256": signWebhook(body, WEBHOOK_SECRET) };
  expect((await fetch(`http://127.0.0.1:${port}/api/github/webhooks`, { method: "POST", body, headers })).status).toBe(200);
}

describe("REDIS_URL, an app and two workers with their own data dirs", () => {
  it("a job paused on one worker resumes on the other with its scratch files, and its files open from the app", async () => {
    const fake = await startFakeAnthropic([
      { content: [use("scratch_write", { path: "local://notes/db.md", content: "# DB notes\nThe tests already use SQLite.\n" }, "toolu_scratch"), use("bash", { command: "seq 1 30000" }, "toolu_seq")] },
      { text: "Scout report: see local://notes/db.md." },
      { content: [use("ask_user", { question: "Which database should it use?", options: ["SQLite", "Postgres"] }, "toolu_ask")] },
      { content: [use("read", { path: "local://notes/db.md" }, "toolu_notes")] },
      { text: PLAN },
    ]);
    stops.push(() => fake.close());
    const { git, cloneUrl } = await gitServer({ "README.md": "# Hello\n" });
    stops.push(() => git.close());
    const base = { ...stackEnv(await tempDir("crewbot-app-"), fake.url), REDIS_URL: redisUrl(), REDIS_PREFIX: `crewbot-files-${Date.now()}` };
    const appPort = await freePort();
    const app: Started = await start({ env: { ...base, PORT: String(appPort), HOST: "127.0.0.1" }, Octokit: TestOctokit, runner: RUNNER });
    stops.push(() => app.stop());
    const workers: StartedWorker[] = [];
    for (const name of ["a", "b"]) {
      const worker = await startWorker({ env: { ...base, CREWBOT_DATA_DIR: await tempDir(`crewbot-worker-${name}-`), CREWBOT_WORKER_ID: `worker:${name}` }, Octokit: TestOctokit, runner: RUNNER });
      workers.push(worker);
      stops.push(() => worker.stop());
    }

    // The first run: scratch file, the long read, the question.
    mockInstallationToken(3); // the app (permission), the first worker, the second
    mockPermission("Codertocat", "write", 2); // the app and the first worker each have their own cache
    const payload = issueCommentCreated("/plan store the data", { cloneUrl, defaultBranch: "main" });
    payload.repository.private = false;
    const edits: string[] = [];
    mockJobComments({ progressId: 5101, edits, trigger: { id: payload.comment.id }, config: PUBLIC })
      .post(`${REPO_PATH}/issues/1/comments`)
      .reply(201, { id: 6101 });
    await post(appPort, payload, "files-1");
    const job = await until("the job waits for its answer", async () => {
      const [j] = await app.crewbot!.queue.listRecent({ limit: 1 });
      if (j && ["succeeded", "failed", "cancelled"].includes(j.state)) throw new Error(`the job ended: ${j.outcome}`);
      return j?.state === "queued" && j.wait && !j.wait.answer ? j : undefined;
    });
    const first = workers.find((w) => existsSync(path.join(w.crewbot.services.runtime.dataDir, "jobs", job.id, "artifacts", "local", "notes", "db.md")))!;
    const other = workers.find((w) => w !== first)!;
    await first.stop(); // gone, with its data dir's copy of the scratch file out of reach

    // The answer reaches the app; the other worker resumes the planner, which reads the scratch file.
    const reply = issueCommentCreated("/answer Postgres", { cloneUrl, defaultBranch: "main" });
    reply.comment.id = 8101;
    reply.repository.private = false;
    nock(API).get(`${REPO_PATH}/collaborators/Codertocat/permission`).optionally().reply(200, { permission: "write", user: { login: "Codertocat" } });
    mockRepoConfig(PUBLIC);
    nock(API)
      .patch(`${REPO_PATH}/issues/comments/6101`).reply(200, {})
      .get(`${REPO_PATH}/issues/1/comments`).query(true).reply(200, [])
      .patch(`${REPO_PATH}/issues/comments/5101`, (b) => (edits.push(b.body), true)).times(6).optionally().reply(200, {});
    await post(appPort, reply, "files-2");
    const ended: JobRecord = await until("the job ends", async () => {
      const j = await app.crewbot!.queue.get(job.id);
      return j && ["succeeded", "failed", "cancelled"].includes(j.state) ? j : undefined;
    });
    expect(ended).toMatchObject({ state: "succeeded", workerId: other.crewbot.runner.workerId });
    const notes = JSON.stringify(fake.requests[4]!.body.messages.at(-1));
    expect(notes).toContain("The tests already use SQLite.");
    expect(edits.at(-1)).toMatch(/^✅ Done/);
    await other.crewbot.background.idle();
    // The command's whole output is an artifact in the first worker's data dir (the tool said where).
    const artifact = /\/artifacts\/(bash-[A-Za-z0-9-]+\.log);/.exec(JSON.stringify(fake.requests[1]!.body.messages.at(-1)))?.[1];
    expect(artifact).toBeDefined();

    // From the app, which ran nothing: the scratch file and the long read's artifact.
    const base_ = `http://127.0.0.1:${appPort}/jobs/${job.id}`;
    // A public repository's transcripts open without sign-in: GitHub is asked once (remembered briefly).
    nock(API).get(REPO_PATH).reply(200, { id: 1296269, full_name: "Codertocat/Hello-World", private: false });
    const page = await (await fetch(base_)).text();
    expect(page).toContain("notes/db.md");
    const scratch = await fetch(`${base_}/artifacts/local/notes/db.md`);
    expect(scratch.status).toBe(200);
    expect(await scratch.text()).toBe("# DB notes\nThe tests already use SQLite.\n");
    const whole = await fetch(`${base_}/artifacts/${artifact}`);
    expect(whole.status).toBe(200);
    const text = await whole.text();
    expect(text).toMatch(/^1\n2\n3\n/);
    expect(text).toContain("\n30000\n");
  }, 90_000);
});
