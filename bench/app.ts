/**
 * Figures for the GitHub App, printed by `npm run bench`:
 *  - webhook acknowledgement latency: 500 signed deliveries at concurrency 25 (goal p99 < 50 ms, 0 errors)
 *  - comment → 👀 and → progress comment, with an idle worker (goal < 1 s)
 *  - GitHub writes per /plan job with an instant fake model (goal ≤ 6)
 *  - /implement → draft PR, and an automatic review of a 60-file PR (bench/review.ts)
 * GitHub is nock (answering at once), the model the fake server, git a local HTTP git server.
 * BENCH_ACK_TOTAL=<n> sends more deliveries; BENCH_PROF=<dir> writes a CPU profile of the app process.
 */
import { randomBytes } from "node:crypto";
import { spawn } from "node:child_process";
import http from "node:http";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import nock from "nock";
import { start, type Started } from "../src/main.js";
import { issueCommentCreated, INSTALLATION_ID, REPO_NAME, REPO_OWNER } from "../test/fixtures/payloads.js";
import { freePort, PRIVATE_KEY, signWebhook, TestOctokit as Octokit } from "../test/helpers/app-stand-ins.js";
import { startFakeAnthropic, type FakeReply } from "../test/helpers/fake-anthropic.js";
import { startGitHttpServer } from "../test/helpers/git-http-server.js";
import { makeRepo, tempDir } from "../test/helpers/git-repo.js";

export const API = "https://api.github.com";
export const REPO = `/repos/${REPO_OWNER}/${REPO_NAME}`;
const SECRET = "bench-secret";
export const TOKEN = `ghs_${randomBytes(18).toString("hex")}`;

/** The app's environment for a bench run: credentials, a fresh data dir, silent logs. */
async function appEnv(port: number, fakeUrl: string) {
  return {
    APP_ID: "1",
    PRIVATE_KEY,
    WEBHOOK_SECRET: SECRET,
    ANTHROPIC_API_KEY: "sk-ant-bench",
    ANTHROPIC_BASE_URL: fakeUrl,
    CREWBOT_DATA_DIR: await tempDir("crewbot-bench-"),
    PORT: String(port),
    HOST: "127.0.0.1",
    LOG_LEVEL: "silent" as const,
  };
}

export async function boot(worker: boolean, fakeUrl: string, extraEnv: Record<string, string> = {}): Promise<{ started: Started; post: (payload: unknown, event?: string) => Promise<number> }> {
  const port = await freePort();
  const env = { ...(await appEnv(port, fakeUrl)), ...extraEnv };
  const started = await start({ env, Octokit, worker, runner: { pollMs: 20 } });
  return { started, post: signedPoster(port) };
}

interface SignedRequest {
  body: string;
  headers: Record<string, string>;
}

/** A payload as GitHub sends it: signed, with its event name and delivery id. */
function signed(payload: unknown, deliveryId: string, event = "issue_comment"): SignedRequest {
  const body = JSON.stringify(payload);
  return {
    body,
    headers: {
      "content-type": "application/json",
      "x-github-event": event,
      "x-github-delivery": deliveryId,
      "x-hub-signature-256": signWebhook(body, SECRET),
    },
  };
}

/** Plain node:http with keep-alive: the sender must cost less than the server it measures (fetch does not). */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function sendSigned(port: number, request: SignedRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, path: "/api/github/webhooks", method: "POST", agent, headers: request.headers },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(request.body);
  });
}

export function signedPoster(port: number): (payload: unknown, event?: string) => Promise<number> {
  let n = 0;
  return (payload, event) => sendSigned(port, signed(payload, `bench-${process.pid}-${n++}`, event));
}

export function mockGitHub(commentPosts: number[], writes: { count: number }) {
  nock(API)
    .persist()
    .post(`/app/installations/${INSTALLATION_ID}/access_tokens`)
    .reply(201, () => ({ token: TOKEN, expires_at: new Date(Date.now() + 3600_000).toISOString() }))
    .get(/\/collaborators\/.+\/permission$/)
    .reply(200, { permission: "admin", role_name: "admin" })
    .get(new RegExp(`${REPO}/issues/\\d+/comments`))
    .query(true)
    .reply(200, [])
    .get(/\/contents\/\.github%2Fcrewbot\.yml$/) // no config anywhere: the defaults
    .reply(404, { message: "Not Found" })
    .get("/app") // the app's slug, for the bot user's login (asked once, as the app)
    .reply(200, { id: 1, slug: "crewbot", name: "crewbot" })
    .get(/^\/users\/[^/]+%5Bbot%5D$/) // the bot user, for the commits' author
    .reply(200, { id: 41898282, type: "Bot" })
    .post(/\/reactions$/)
    .reply(201, () => ((writes.count += 1), commentPosts.push(performance.now()), {}))
    .post(new RegExp(`${REPO}/issues/\\d+/comments$`))
    .reply(201, () => ((writes.count += 1), commentPosts.push(performance.now()), { id: 1000 + writes.count }))
    .patch(/\/issues\/comments\/\d+$/)
    .reply(200, () => ((writes.count += 1), {}));
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

/** The server runs in its own process, as in production; this process only sends the load. */
export async function ackLatency(): Promise<string> {
  const env = {
    ...(await appEnv(await freePort(), "http://127.0.0.1:9")),
    BENCH_TOKEN: TOKEN,
    PATH: process.env.PATH,
  };
  const profile = process.env.BENCH_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, fileURLToPath(new URL("./ack-server.mjs", import.meta.url))], {
    stdio: ["ignore", "pipe", "inherit"],
    env,
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once("data", (chunk: Buffer) => resolve(Number(String(chunk).trim())));
    child.once("exit", (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const total = Number(process.env.BENCH_ACK_TOTAL) || 500;
  // Bodies and signatures are made before the clock starts: the figure is the server's, not the sender's.
  const prepare = (count: number, offset: number, body?: string) =>
    Array.from({ length: count }, (_, k) => {
      const payload = issueCommentCreated(body ?? `/plan bench ${offset + k}`);
      payload.issue.number = 1 + offset + k; // separate issues: nothing waits behind anything
      return signed(payload, `bench-${offset + k}`);
    });
  const run = async (requests: SignedRequest[], concurrency = 25) => {
    const latencies: number[] = [];
    let errors = 0;
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const request = requests[next++]!;
        const t = performance.now();
        const status = await sendSigned(port, request).catch(() => 0);
        latencies.push(performance.now() - t);
        if (status !== 200) errors += 1;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return { latencies, errors };
  };
  const warmUp = prepare(50, 100_000);
  const measured = prepare(total, 0);
  await run(warmUp); // JIT, connections, the first installation token
  const { latencies, errors } = await run(measured);
  const alone = await run(prepare(100, 200_000), 1); // one at a time: the server's own cost per delivery
  // The floor: a comment crewbot ignores at once costs only Probot's pipeline (verify, parse, auth, emit).
  const floor = await run(prepare(total, 300_000, "thanks, looks good"));
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  return (
    `webhook ack: ${total} signed deliveries at concurrency 25 (compiled server in its own process, after 50 warm-up): ` +
    `p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, ${errors + alone.errors} errors (goal p99 < 50 ms, 0 errors) ${p99 < 50 && errors === 0 ? "✓" : "✗"}; ` +
    `one at a time p50 ${percentile(alone.latencies, 50).toFixed(1)} ms; ` +
    `Probot alone (an ignored comment, same load) p50 ${percentile(floor.latencies, 50).toFixed(1)} ms, p99 ${percentile(floor.latencies, 99).toFixed(1)} ms`
  );
}

interface JobRun {
  outcome: string;
  /** ms from the webhook to the 👀, to the progress comment, and to the job's end. */
  eyes: number;
  comment: number;
  total: number;
  /** ms from the webhook to the pull request's creation, when one was opened. */
  pr?: number;
  writes: number;
}

/** One job from its webhook to its end, against an instant fake model; GitHub's writes counted. */
async function runJob(command: string, script: FakeReply[]): Promise<JobRun> {
  const root = await tempDir("crewbot-bench-served-");
  const git = await startGitHttpServer({ root, token: TOKEN, receivePack: true });
  await makeRepo({ "README.md": "# bench\n" }, `${root}/${REPO_OWNER}/${REPO_NAME}.git`);
  const fake = await startFakeAnthropic(script);
  const posts: number[] = [];
  const writes = { count: 0 };
  let prAt: number | undefined;
  mockGitHub(posts, writes);
  nock(API)
    .post(`${REPO}/pulls`)
    .reply(201, () => ((prAt = performance.now()), (writes.count += 1), { number: 1, html_url: "https://github.com/x/y/pull/1" }));
  const { started, post } = await boot(true, fake.url);
  const payload = issueCommentCreated(command, { cloneUrl: git.cloneUrl(REPO_OWNER, REPO_NAME), defaultBranch: "main" });
  const t0 = performance.now();
  await post(payload);
  const [job] = await started.crewbot!.queue.listRecent();
  while (!["succeeded", "failed"].includes((await started.crewbot!.queue.get(job!.id))!.state)) await new Promise((r) => setTimeout(r, 20));
  const total = performance.now() - t0;
  const outcome = (await started.crewbot!.queue.get(job!.id))!.outcome ?? "";
  await started.crewbot!.background.idle();
  await started.stop();
  await fake.close();
  await git.close();
  nock.cleanAll();
  return { outcome, eyes: posts[0]! - t0, comment: posts[1]! - t0, total, pr: prAt === undefined ? undefined : prAt - t0, writes: writes.count };
}

export async function planJob(): Promise<string[]> {
  const run = await runJob("/plan", [{ text: "Scout report." }, { text: "## Plan\n1. One\n2. Two" }]);
  return [
    `comment → 👀 ${run.eyes.toFixed(0)} ms (goal < 1000 ms) ${run.eyes < 1000 ? "✓" : "✗"}; → progress comment ${run.comment.toFixed(0)} ms (the writer spaces writes 1 s apart, as GitHub asks)`,
    `GitHub writes for one /plan job with an instant fake model: ${run.writes} (goal ≤ 6) ${run.writes <= 6 ? "✓" : "✗"} — ${run.outcome}`,
  ];
}

export async function implementJob(): Promise<string> {
  const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });
  const run = await runJob("/implement", [
    { text: "Scout report." },
    { text: "## Plan\n1. Add one\n2. Add two" },
    { content: [use("write", { path: "one.txt", content: "1\n" })] },
    { content: [{ type: "text", text: "[DONE:1]" }, use("write", { path: "two.txt", content: "2\n" })] },
    { text: "[DONE:2]\n## Completed\nBoth.\n## Files Changed\n- one.txt\n- two.txt\n## Notes\nNone." },
  ]);
  const perTwoSeconds = run.writes / Math.max(1, run.total / 2000);
  return (
    `/implement → draft PR: ${run.pr === undefined ? "no PR" : `${run.pr.toFixed(0)} ms`} with an instant fake model (job ${run.total.toFixed(0)} ms); ` +
    `${run.writes} GitHub writes, ${perTwoSeconds.toFixed(2)} per 2 s (goal ≤ 1 per 2 s) ${perTwoSeconds <= 1 ? "✓" : "✗"} — ${run.outcome}`
  );
}
