/**
 * Scale-out end to end: with REDIS_URL, the webhook server only enqueues (no worker runs in it)
 * and a separate worker (`startWorker`, as `npm run worker` starts it) runs the job through the
 * shared Redis queue; both serve /healthz and /metrics.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

/** The sandbox gauges of a /metrics text, as "feature value". */
const sandboxGauges = (text: string) => [...text.matchAll(/^crewbot_sandbox_available\{feature="(\w+)"\} (\d)$/gm)].map((m) => `${m[1]} ${m[2]}`);
import { start, type Started } from "../../src/main.js";
import { startWorker, type StartedWorker } from "../../src/worker.js";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { freePort, signWebhook } from "../helpers/app-stand-ins.js";
import { startFakeAnthropic, type FakeServer } from "../helpers/fake-anthropic.js";
import { tempDir } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { startRedis, type RedisServer } from "../queue/redis-server.js";
import { gitServer, mockInstallationToken, mockJobComments, mockPermission, stackEnv, TestOctokit, WEBHOOK_SECRET } from "./harness.js";

useNock();

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

const RUNNER = { pollMs: 50, leaseMs: 4000, heartbeatMs: 500 };

describe("REDIS_URL: the app enqueues, a worker process runs the job", () => {
  it("runs a /plan through the shared queue and reports it on both processes' /healthz and /metrics", async () => {
    const fake: FakeServer = await startFakeAnthropic([{ text: "Scout report." }, { text: "## Plan\n1. Do it" }]);
    stops.push(() => fake.close());
    const { git, cloneUrl } = await gitServer({ "README.md": "# Hello\n" });
    stops.push(() => git.close());
    const prefix = `crewbot-app-test-${Date.now()}`;
    const base = { ...stackEnv(await tempDir("crewbot-data-"), fake.url), REDIS_URL: redis.url, REDIS_PREFIX: prefix };

    const appPort = await freePort();
    const app: Started = await start({ env: { ...base, PORT: String(appPort), HOST: "127.0.0.1" }, Octokit: TestOctokit, runner: RUNNER });
    stops.push(() => app.stop());
    expect(app.crewbot!.queueKind).toBe("redis");
    expect(app.crewbot!.runner.running).toEqual([]);

    const workerPort = await freePort();
    const worker: StartedWorker = await startWorker({
      env: { ...base, CREWBOT_DATA_DIR: await tempDir("crewbot-worker-"), CREWBOT_WORKER_PORT: String(workerPort) },
      Octokit: TestOctokit,
      runner: RUNNER,
    });
    stops.push(() => worker.stop());

    const payload = issueCommentCreated("/plan", { cloneUrl, defaultBranch: "main" });
    mockInstallationToken(2); // the app (permission) and the worker (the job) each mint one
    mockPermission("Codertocat", "write", 2); // each process has its own short-lived cache
    const edits: string[] = [];
    mockJobComments({ progressId: 61, edits, trigger: { id: payload.comment.id } });

    const body = JSON.stringify(payload);
    const res = await fetch(`http://127.0.0.1:${appPort}/api/github/webhooks`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "x-github-event": "issue_comment", "x-github-delivery": "redis-1", "x-hub-signature-256": signWebhook(body, WEBHOOK_SECRET) },
    });
    expect(res.status).toBe(200);

    const [queued] = await app.crewbot!.queue.listRecent({ limit: 1 });
    let job = queued!;
    for (let i = 0; i < 400 && !["succeeded", "failed", "cancelled"].includes(job.state); i++) {
      await new Promise((r) => setTimeout(r, 50));
      job = (await app.crewbot!.queue.get(queued!.id))!;
    }
    expect(job.outcome).toMatch(/^✅ Done · /);
    expect(job.state).toBe("succeeded");
    expect(job.workerId).toBe(worker.crewbot.runner.workerId);
    expect(edits.at(-1)).toMatch(/^✅ Done · [\s\S]*- \[ \] Do it/);
    await worker.crewbot.background.idle();

    const appHealth = await (await fetch(`http://127.0.0.1:${appPort}/healthz`)).json();
    const sandbox = { available: true, network: true, allowUnsandboxed: false };
    expect(appHealth).toEqual({ status: "ok", sandbox });
    const workerHealth = await (await fetch(`http://127.0.0.1:${workerPort}/healthz`)).json();
    expect(workerHealth).toEqual({ status: "ok", sandbox });
    expect(sandboxGauges(await (await fetch(`http://127.0.0.1:${workerPort}/metrics`)).text())).toEqual(["bubblewrap 1", "network 1"]);
    const workerMetrics = await (await fetch(`http://127.0.0.1:${workerPort}/metrics`)).text();
    expect(workerMetrics).toContain('crewbot_jobs_total{kind="plan",state="succeeded"} 1');
    expect(workerMetrics).toMatch(/crewbot_tokens_total\{kind="plan",type="output"\} \d+/);
    const appMetrics = await (await fetch(`http://127.0.0.1:${appPort}/metrics`)).text();
    expect(appMetrics).toContain("crewbot_queue_depth 0");
    expect(appMetrics).not.toContain("crewbot_jobs_total{"); // the app ran no job itself
  });
});

describe("npm run worker", () => {
  it("refuses to start without the app's credentials, naming what is missing", async () => {
    await expect(startWorker({ env: { REDIS_URL: "redis://127.0.0.1:1" } })).rejects.toThrow(/^APP_ID is not set/);
    await expect(startWorker({ env: { APP_ID: "1", REDIS_URL: "redis://127.0.0.1:1" } })).rejects.toThrow(/^PRIVATE_KEY or PRIVATE_KEY_PATH is not set/);
  });
});
