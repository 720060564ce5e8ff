/**
 * A repository's monthly cap across processes: an app and two workers (`npm run worker`) on one
 * Redis. The cost a job recorded on one worker counts on the other: once the repository is over
 * its `budgets.monthlyUsd`, the next `/plan` (run by the other worker) ends in the one reply naming
 * the cap, with no model call, and an automatic review of a pull request gets a `neutral` check.
 */
import nock from "nock";
import { describe, expect, it } from "vitest";
import { nextMonthStart, utcDay } from "../../src/installations/spend-caps.js";
import { start, type Started } from "../../src/main.js";
import type { JobRecord } from "../../src/queue/types.js";
import { startWorker, type StartedWorker } from "../../src/worker.js";
import { issueCommentCreated, pullRequestEvent } from "../fixtures/payloads.js";
import { freePort, signWebhook } from "../helpers/app-stand-ins.js";
import { startFakeAnthropic } from "../helpers/fake-anthropic.js";
import { gitSync, tempDir } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { API, gitServer, INSTALLATION_ID, mockInstallationToken, mockJobComments, mockPermission, mockRepoConfig, normalise, REPO_PATH, stackEnv, TestOctokit, TOKEN, WEBHOOK_SECRET, useRedisStack } from "./harness.js";

useNock();

const { redisUrl, stops } = useRedisStack();

const RUNNER = { pollMs: 50, leaseMs: 4000, heartbeatMs: 500 };
const CONFIG = "budgets:\n  monthlyUsd: 1\nreview:\n  debounceSeconds: 0\n";
/** Each model answer is billed for a million input tokens: the first /plan alone is over $1. */
const BILLED = { input_tokens: 1_000_000, output_tokens: 100 };

async function deliver(port: number, name: string, payload: unknown, id: string): Promise<void> {
  const body = JSON.stringify(payload);
  const headers = { "content-type": "application/json", "x-github-event": name, "x-github-delivery": id, "x-hub-signature-256": signWebhook(body, WEBHOOK_SECRET) };
  expect((await fetch(`http://127.0.0.1:${port}/api/github/webhooks`, { method: "POST", body, headers })).status).toBe(200);
}

/** The newest job, once it ended. */
async function ended(app: Started): Promise<JobRecord> {
  const [newest] = await app.crewbot!.queue.listRecent({ limit: 1 });
  let job = newest!;
  for (let i = 0; i < 600 && !["succeeded", "failed", "cancelled"].includes(job.state); i++) {
    await new Promise((r) => setTimeout(r, 50));
    job = (await app.crewbot!.queue.get(newest!.id))!;
  }
  return job;
}

describe("monthly caps across an app and two workers on one Redis", () => {
  it("the cost one worker recorded refuses the next /plan on the other, and an automatic review gets a neutral check", async () => {
    const fake = await startFakeAnthropic([
      { text: "Scout report: README.md says hello.", usage: BILLED },
      { text: "## Goal\nSay hello.\n\n## Plan\n1. Nothing\n\n## Risks\nNone.", usage: BILLED },
    ]);
    stops.push(() => fake.close());
    const served = await gitServer({ "README.md": "# Hello\n" });
    stops.push(() => served.git.close());
    const base = { ...stackEnv(await tempDir("crewbot-data-"), fake.url), REDIS_URL: redisUrl(), REDIS_PREFIX: `crewbot-caps-workers-${Date.now()}`, LOG_LEVEL: "error" as const };
    const port = await freePort();
    const app = await start({ env: { ...base, PORT: String(port), HOST: "127.0.0.1" }, Octokit: TestOctokit, runner: RUNNER });
    stops.push(() => app.stop());
    const workers: StartedWorker[] = [];
    for (let i = 0; i < 2; i++) {
      const worker = await startWorker({ env: { ...base, CREWBOT_DATA_DIR: await tempDir("crewbot-worker-"), CREWBOT_WORKER_PORT: String(await freePort()) }, Octokit: TestOctokit, runner: RUNNER });
      stops.push(() => worker.stop());
      workers.push(worker);
    }

    // The first /plan runs on one worker and costs more than the repository's $1.
    // The app and each worker that runs a job mint their own, unless one minted in this test process is still cached.
    mockInstallationToken(2);
    nock(API)
      .post(`/app/installations/${INSTALLATION_ID}/access_tokens`)
      .optionally()
      .reply(201, { token: TOKEN, expires_at: new Date(Date.now() + 3600_000).toISOString(), permissions: {} });
    mockPermission("Codertocat", "write", 2); // the app (the trigger) and the first job's worker
    const first = issueCommentCreated("/plan", { cloneUrl: served.cloneUrl, defaultBranch: "main" });
    const firstEdits: string[] = [];
    mockJobComments({ progressId: 801, edits: firstEdits, trigger: { id: first.comment.id }, config: { repo: CONFIG } });
    await deliver(port, "issue_comment", first, "caps-workers-1");
    const firstJob = await ended(app);
    expect(firstJob.outcome).toMatch(/^✅ Done · /);
    const [ran, other] = firstJob.workerId === workers[0]!.crewbot.runner.workerId ? [workers[0]!, workers[1]!] : [workers[1]!, workers[0]!];
    expect(firstJob.workerId).toBe(ran.crewbot.runner.workerId);
    await ran.crewbot.background.idle();
    await ran.stop(); // from now on only the other worker runs jobs
    const cost = await other.crewbot.services.operator.usage.costSince(INSTALLATION_ID, 0, "codertocat/hello-world");
    expect(cost).toBeGreaterThan(1);

    // The second /plan, on the other worker: refused, the model not asked.
    const second = issueCommentCreated("/plan", { cloneUrl: served.cloneUrl, defaultBranch: "main" });
    second.issue.number = 2;
    second.comment.id += 1;
    const secondEdits: string[] = [];
    mockJobComments({ progressId: 802, number: 2, edits: secondEdits, trigger: { id: second.comment.id }, config: { repo: CONFIG }, conversation: false });
    await deliver(port, "issue_comment", second, "caps-workers-2");
    const secondJob = await ended(app);
    expect(secondJob.workerId).toBe(other.crewbot.runner.workerId);
    const reason = `this repository has used its monthly budget ($${cost.toFixed(2)} of $1.00, \`budgets.monthlyUsd\`); new jobs start again on ${utcDay(nextMonthStart(Date.now()))} (UTC)`;
    expect(normalise(secondEdits.at(-1)!, secondJob.id)).toBe(`⏸ Stopped: ${reason} · Ns · 0 tokens · $0.0000\n<!-- crewbot:job:JOB -->\n\n[Transcript](https://crewbot.example.com/jobs/JOB)`);
    expect(fake.requests).toHaveLength(2); // the first job's only

    // An automatic review of a pull request, on the other worker: a neutral check saying why.
    gitSync(served.dir, "branch", "feature");
    const head = gitSync(served.dir, "rev-parse", "HEAD").trim();
    gitSync(served.dir, "update-ref", "refs/pull/1/head", head);
    mockRepoConfig({ repo: CONFIG }); // the app's trigger (review.auto)
    mockRepoConfig({ repo: CONFIG }); // the job
    const checks: any[] = [];
    nock(API).post(`${REPO_PATH}/check-runs`, (b) => (checks.push(b), true)).reply(201, { id: 900 });
    await deliver(port, "pull_request", pullRequestEvent("opened", { headSha: head, cloneUrl: served.cloneUrl }), "caps-workers-3");
    const review = await ended(app);
    expect(review).toMatchObject({ kind: "review", workerId: other.crewbot.runner.workerId, outcome: `⏸ Stopped: ${reason}` });
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ name: "crewbot/review", head_sha: head, status: "completed", conclusion: "neutral" });
    expect(checks[0].output).toEqual({ title: "Monthly budget used", summary: `Not reviewed automatically: ${reason}.` });
    expect(fake.requests).toHaveLength(2);
  }, 120_000);
});
