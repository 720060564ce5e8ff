/**
 * GitHub Enterprise Server: with GHE_HOST set, every request of every process — the webhook
 * server, `npm run worker`, an automatic review started by a pull_request event — goes to the
 * Enterprise host (nock at `https://ghe.example.test/api/v3`), installation tokens included.
 * api.github.com is unreachable: nock has nothing for it, so any request there fails the job and
 * the test (useNock fails on every unmatched request).
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import nock from "nock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { start, type Started } from "../../src/main.js";
import type { JobRecord } from "../../src/queue/types.js";
import { startWorker, type StartedWorker } from "../../src/worker.js";
import { issueCommentCreated, pullRequestEvent } from "../fixtures/payloads.js";
import { freePort, signWebhook } from "../helpers/app-stand-ins.js";
import { startFakeAnthropic } from "../helpers/fake-anthropic.js";
import { gitSync, tempDir } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { startRedis, type RedisServer } from "../queue/redis-server.js";
import { gitServer, INSTALLATION_ID, REPO_PATH, stackEnv, TestOctokit, TOKEN, WEBHOOK_SECRET } from "./harness.js";

useNock();

const GHE_HOST = "ghe.example.test";
const GHE = `https://${GHE_HOST}`;
/** Every REST path on Enterprise Server is under /api/v3. */
const V3 = "/api/v3";
const RUNNER = { pollMs: 50, leaseMs: 4000, heartbeatMs: 500 };

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
});
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** Every host GitHub requests went to (nock sees them all, matched or not). */
function hostsSeen(): Set<string> {
  const hosts = new Set<string>();
  const record = (req: { hostname?: string; host?: string; options?: { hostname?: string } }) => {
    const host = req.hostname ?? req.options?.hostname ?? req.host;
    if (host && !/^(127\.0\.0\.1|localhost)/.test(host)) hosts.add(host);
  };
  nock.emitter.on("no match", record);
  stops.push(async () => void nock.emitter.off("no match", record));
  return hosts;
}

/** The Enterprise host's token endpoint, `times` mints (each process mints its own). */
function mockGheToken(times: number): nock.Scope {
  return nock(GHE)
    .post(`${V3}/app/installations/${INSTALLATION_ID}/access_tokens`)
    .times(times)
    .reply(201, { token: TOKEN, expires_at: new Date(Date.now() + 3600_000).toISOString(), permissions: { contents: "write" } });
}

/** No `.github/crewbot.yml` in the repository nor in the organisation's `.github` repository. */
function mockGheNoConfig(): nock.Scope {
  return nock(GHE)
    .get(`${V3}${REPO_PATH}/contents/.github%2Fcrewbot.yml`)
    .reply(404, { message: "Not Found" })
    .get(`${V3}/repos/Codertocat/.github/contents/.github%2Fcrewbot.yml`)
    .reply(404, { message: "Not Found" });
}

async function post(port: number, name: string, id: string, payload: unknown): Promise<number> {
  const body = JSON.stringify(payload);
  const res = await fetch(`http://127.0.0.1:${port}/api/github/webhooks`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", "x-github-event": name, "x-github-delivery": id, "x-hub-signature-256": signWebhook(body, WEBHOOK_SECRET) },
  });
  return res.status;
}

async function ended(app: Started, id: string): Promise<JobRecord> {
  for (let i = 0; i < 600; i++) {
    const job = await app.crewbot!.queue.get(id);
    if (job && ["succeeded", "failed", "cancelled"].includes(job.state)) return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} did not end`);
}

describe("GHE_HOST: every process talks to the Enterprise host only", () => {
  it("npm run worker runs a /plan enqueued by the app, both minting tokens and writing at the Enterprise host", async () => {
    const hosts = hostsSeen();
    const fake = await startFakeAnthropic([{ text: "Scout report." }, { text: "## Plan\n1. Do it" }]);
    stops.push(() => fake.close());
    const { git, cloneUrl } = await gitServer({ "README.md": "# Hello\n" });
    stops.push(() => git.close());
    const base = { ...stackEnv(await tempDir("crewbot-data-"), fake.url), GHE_HOST, REDIS_URL: redis.url, REDIS_PREFIX: `crewbot-ghe-${Date.now()}` };

    const appPort = await freePort();
    const app = await start({ env: { ...base, PORT: String(appPort), HOST: "127.0.0.1" }, Octokit: TestOctokit, runner: RUNNER });
    stops.push(() => app.stop());
    const worker: StartedWorker = await startWorker({ env: { ...base, CREWBOT_DATA_DIR: await tempDir("crewbot-worker-") }, Octokit: TestOctokit, runner: RUNNER });
    stops.push(() => worker.stop());

    const payload = issueCommentCreated("/plan", { cloneUrl, defaultBranch: "main" });
    mockGheToken(2); // the app's (the permission check) and the worker's (the job, git's token)
    nock(GHE)
      .get(`${V3}${REPO_PATH}/collaborators/Codertocat/permission`)
      .times(2)
      .reply(200, { permission: "write", role_name: "write", user: { login: "Codertocat" } });
    mockGheNoConfig();
    const edits: string[] = [];
    nock(GHE)
      .post(`${V3}${REPO_PATH}/issues/comments/${payload.comment.id}/reactions`, { content: "eyes" })
      .reply(201, {})
      .post(`${V3}${REPO_PATH}/issues/1/comments`)
      .reply(201, { id: 71 })
      .get(`${V3}${REPO_PATH}/issues/1/comments`)
      .query(true)
      .reply(200, [])
      .patch(`${V3}${REPO_PATH}/issues/comments/71`, (b: { body: string }) => (edits.push(b.body), true))
      .reply(200, {})
      .patch(`${V3}${REPO_PATH}/issues/comments/71`, (b: { body: string }) => (edits.push(b.body), true))
      .times(6)
      .optionally()
      .reply(200, {});

    expect(await post(appPort, "issue_comment", "ghe-plan-1", payload)).toBe(200);
    const [queued] = await app.crewbot!.queue.listRecent({ limit: 1 });
    const job = await ended(app, queued!.id);
    expect(job.outcome).toMatch(/^✅ Done · /);
    expect(job.workerId).toBe(worker.crewbot.runner.workerId); // the worker ran it, not the app
    expect(edits.at(-1)).toMatch(/^✅ Done · [\s\S]*- \[ \] Do it/);
    await worker.crewbot.background.idle();
    expect([...hosts]).toEqual([]); // no request went anywhere nock did not expect (api.github.com included)
  });

  it("an automatic review (a pull_request event, whose handler reads only the config) mints its token and reviews at the Enterprise host", async () => {
    const hosts = hostsSeen();
    const fake = await startFakeAnthropic([{ text: "## Warnings\n- greet.js:2 - `b` is never used.\n## Summary\nOne problem." }]);
    stops.push(() => fake.close());
    const served = await gitServer({ "greet.js": "const a = 1;\n" });
    stops.push(() => served.git.close());
    gitSync(served.dir, "checkout", "-q", "-b", "feature");
    await writeFile(path.join(served.dir, "greet.js"), "const a = 1;\nconst b = 2;\n");
    gitSync(served.dir, "commit", "-q", "-am", "add b");
    const head = gitSync(served.dir, "rev-parse", "HEAD").trim();
    gitSync(served.dir, "update-ref", "refs/pull/1/head", head);
    gitSync(served.dir, "checkout", "-q", "main");

    // The embedded worker of `npm start` (no REDIS_URL) runs the review.
    const env = { ...stackEnv(await tempDir("crewbot-data-"), fake.url), GHE_HOST };
    const appPort = await freePort();
    const app = await start({ env: { ...env, PORT: String(appPort), HOST: "127.0.0.1" }, Octokit: TestOctokit, runner: RUNNER });
    stops.push(() => app.stop());

    const checks: Array<{ method: string; body: any }> = [];
    const reviews: any[] = [];
    mockGheToken(1);
    // Read twice: by the trigger (review.auto: whether a job is queued), then by the job.
    mockGheNoConfig();
    mockGheNoConfig();
    nock(GHE)
      .post(`${V3}${REPO_PATH}/check-runs`, (b) => (checks.push({ method: "POST", body: b }), true))
      .reply(201, { id: 801 })
      .get(`${V3}${REPO_PATH}/collaborators/Codertocat/permission`)
      .reply(200, { permission: "write", role_name: "write", user: { login: "Codertocat" } })
      .get(`${V3}${REPO_PATH}/issues/1/comments`)
      .query(true)
      .reply(200, [])
      .get(`${V3}${REPO_PATH}/pulls/1/comments`)
      .query(true)
      .optionally()
      .reply(200, [])
      .get(`${V3}${REPO_PATH}/pulls/1/reviews`)
      .query(true)
      .optionally()
      .reply(200, [])
      .post(`${V3}${REPO_PATH}/pulls/1/reviews`, (b) => (reviews.push(b), true))
      .reply(200, { id: 901, html_url: `${GHE}/Codertocat/Hello-World/pull/1#pullrequestreview-901` })
      .patch(`${V3}${REPO_PATH}/check-runs/801`, (b) => (checks.push({ method: "PATCH", body: b }), true))
      .reply(200, {});

    const payload = pullRequestEvent("opened", { headSha: head, cloneUrl: served.cloneUrl });
    expect(await post(appPort, "pull_request", "ghe-pr-1", payload)).toBe(200);
    const [queued] = await app.crewbot!.queue.listRecent({ limit: 1 });
    const job = await ended(app, queued!.id);
    expect(job.outcome).toBe("✅ Done · 0 critical · 1 warning · 0 suggestions");
    expect(reviews).toHaveLength(1);
    expect(reviews[0]).toMatchObject({ event: "COMMENT", commit_id: head });
    expect(reviews[0].comments.map((c: any) => [c.path, c.line])).toEqual([["greet.js", 2]]);
    expect(checks.map((c) => [c.method, c.body.status, c.body.conclusion ?? null])).toEqual([
      ["POST", "in_progress", null],
      ["PATCH", "completed", "neutral"],
    ]);
    await app.crewbot!.background.idle();
    expect([...hosts]).toEqual([]);
  });
});
