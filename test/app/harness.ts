/**
 * The whole app in one process, against stand-ins: GitHub's REST API is nock (failing on any
 * unexpected or unused request), git is a real HTTP git server requiring the installation token,
 * the model is the fake Anthropic server. `probot.receive` delivers webhooks.
 */
import { randomBytes } from "node:crypto";
import nock from "nock";
import { Probot, type Logger } from "probot";
import { afterAll, afterEach, beforeAll, vi } from "vitest";
import { startRedis, type RedisServer } from "../queue/redis-server.js";
import { composeCrewbot, type Crewbot } from "../../src/app/compose.js";
import { crewbotApp } from "../../src/index.js";
import { openStores } from "../../src/store/open-stores.js";
import type { JobRecord, JobState, NewJob } from "../../src/queue/types.js";
import { startFakeAnthropic, type FakeServer, type Script } from "../helpers/fake-anthropic.js";
import { startGitHttpServer, type GitHttpServer } from "../helpers/git-http-server.js";
import { makeRepo, tempDir } from "../helpers/git-repo.js";
import { PRIVATE_KEY, TestOctokit } from "../helpers/app-stand-ins.js";
import { API, fakeClock, type FakeClock } from "../helpers/github.js";
import { INSTALLATION_ID, REPO_NAME, REPO_OWNER, type issueCommentCreated } from "../fixtures/payloads.js";

export { API, INSTALLATION_ID, PRIVATE_KEY, REPO_NAME, REPO_OWNER, TestOctokit };
export const REPO_PATH = `/repos/${REPO_OWNER}/${REPO_NAME}`;
/** Installation-token shaped, so any leak would also match the redactor's patterns. */
export const TOKEN = `ghs_${randomBytes(18).toString("hex")}`;

export const WEBHOOK_SECRET = "webhook-secret-for-tests";
export const ANTHROPIC_KEY = `sk-ant-api03-${randomBytes(16).toString("hex")}`;



export interface Stack {
  probot: Probot;
  crewbot: Crewbot;
  fake: FakeServer;
  git: GitHttpServer;
  cloneUrl: string;
  /** The served repository (with a working tree): what a push lands in. */
  remoteDir: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** The write gates' clock: virtual time, moved only by their waits (each recorded in `sleeps`). */
  clock: FakeClock;
  waitFor(jobId: string, states?: JobState[]): Promise<JobRecord>;
  /** Delivers a webhook and waits for the job it made to end (and its background writes). */
  runToEnd(name: string, payload: unknown, deliveryId: string): Promise<JobRecord>;
  stop(): Promise<void>;
}

const stacks: Stack[] = [];
afterEach(async () => {
  await Promise.all(stacks.splice(0).map((s) => s.stop()));
});

export async function gitServer(files: Record<string, string>): Promise<{ git: GitHttpServer; cloneUrl: string; dir: string }> {
  const root = await tempDir("crewbot-served-");
  // Pushes allowed: /implement pushes its branch here, with the token as a header.
  const git = await startGitHttpServer({ root, token: TOKEN, receivePack: true });
  const dir = `${root}/${REPO_OWNER}/${REPO_NAME}.git`;
  await makeRepo(files, dir);
  return { git, cloneUrl: git.cloneUrl(REPO_OWNER, REPO_NAME), dir };
}

export function stackEnv(dataDir: string, fakeUrl: string): NodeJS.ProcessEnv {
  return {
    APP_ID: "1",
    PRIVATE_KEY,
    WEBHOOK_SECRET,
    ANTHROPIC_API_KEY: ANTHROPIC_KEY,
    ANTHROPIC_BASE_URL: fakeUrl,
    CREWBOT_DATA_DIR: dataDir,
    CREWBOT_PUBLIC_URL: "https://crewbot.example.com",
    CREWBOT_APP_SLUG: "crewbot",
    LOG_LEVEL: "silent",
  };
}

export interface StackOptions {
  files?: Record<string, string>;
  /** Leave the runner stopped: jobs stay queued, for trigger-only tests. */
  runner?: boolean;
  /** An existing data dir (a restart). */
  dataDir?: string;
  /** More of the operator's environment (limits, secrets), over `stackEnv`. */
  env?: NodeJS.ProcessEnv;
  /** Probot's logger (default: Probot's own, at `fatal`). */
  log?: Logger;
  /** The runner's lease and heartbeat (default: a 4 s lease, a beat every 500 ms). */
  lease?: { leaseMs: number; heartbeatMs: number };
}

export async function startStack(script: Script, options: StackOptions = {}): Promise<Stack> {
  const files = options.files ?? { "README.md": "# Hello\n" };
  const fake = await startFakeAnthropic(script);
  const { git, cloneUrl, dir: remoteDir } = await gitServer(files);
  const dataDir = options.dataDir ?? (await tempDir("crewbot-data-"));
  const env = { ...stackEnv(dataDir, fake.url), ...options.env };
  const logging = options.log ? { log: options.log } : { logLevel: "fatal" as const };
  const probot = new Probot({ appId: 1, privateKey: PRIVATE_KEY, secret: WEBHOOK_SECRET, Octokit: TestOctokit, ...logging });
  let composed: Crewbot | undefined;
  const runner = { pollMs: 50, leaseMs: 4000, heartbeatMs: 500, ...options.lease };
  // From now on: the rate-limit headers the mocks send are relative to real time.
  const clock = fakeClock(Date.now());
  // As main.ts does it: compose inside the app function, when Probot's logger and auth are ready.
  // With REDIS_URL in `env`, the stores are Redis's, opened as main.ts opens them; the runner stays in this process.
  const stores = env.REDIS_URL ? await openStores(env, dataDir) : undefined;
  await probot.load(async (app, options) => {
    composed = composeCrewbot(app, { env, runner, clock, ...(stores ? { stores } : {}) });
    await crewbotApp(composed.triggers)(app, options);
  });
  const crewbot = composed!;
  if (options.runner !== false) await crewbot.runner.start();
  const stack: Stack = {
    probot,
    crewbot,
    fake,
    git,
    cloneUrl,
    remoteDir,
    dataDir,
    env,
    clock,
    async waitFor(jobId, states = ["succeeded", "failed", "cancelled"]) {
      for (let i = 0; i < 600; i++) {
        const job = await crewbot.queue.get(jobId);
        if (job && states.includes(job.state)) return job;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`job ${jobId} did not reach ${states.join("/")}`);
    },
    async runToEnd(name, payload, deliveryId) {
      await probot.receive({ id: deliveryId, name, payload } as never);
      const [newest] = await crewbot.queue.listRecent({ limit: 1 });
      const job = await stack.waitFor(newest!.id);
      await crewbot.background.idle();
      await crewbot.transcripts.recorder.flush();
      return job;
    },
    async stop() {
      if (options.runner !== false) await crewbot.runner.stop({ drain: false, timeoutMs: 1000 });
      await crewbot.close();
      await git.close();
      await fake.close();
    },
  };
  stacks.push(stack);
  return stack;
}

/** GitHub's answer when the app asks for an installation token. */
export function mockInstallationToken(times = 1): nock.Scope {
  return nock(API)
    .post(`/app/installations/${INSTALLATION_ID}/access_tokens`)
    .times(times)
    .reply(201, { token: TOKEN, expires_at: new Date(Date.now() + 3600_000).toISOString(), permissions: {} });
}

export function mockPermission(login: string, permission: string, times = 1): nock.Scope {
  return nock(API)
    .get(`${REPO_PATH}/collaborators/${login}/permission`)
    .times(times)
    .reply(200, { permission: permission === "maintain" ? "write" : permission, role_name: permission, user: { login } });
}

/** Replaces what differs between runs (job ids, durations) so whole bodies can be compared. */
export function normalise(body: string, jobId: string): string {
  return body.replaceAll(jobId, "JOB").replace(/\b\d+(?:m \d+)?s\b/g, "Ns");
}

/** The id GitHub gives the app's bot user `crewbot[bot]`. */
export const BOT_USER_ID = 41898282;

/** The bot user, asked once per app for the noreply address of crewbot's commits. */
export function mockBotUser(): nock.Scope {
  return nock(API).get("/users/crewbot%5Bbot%5D").reply(200, { login: "crewbot[bot]", id: BOT_USER_ID, type: "Bot" });
}

export const CONFIG_URL_PATH = "/contents/.github%2Fcrewbot.yml";

/**
 * GitHub's answers when a job reads `.github/crewbot.yml` (Probot's config plugin): the
 * repository's file, else the organisation's `.github` repository's; a missing one is a 404.
 */
export function mockRepoConfig(files: { repo?: string; org?: string } = {}): nock.Scope {
  const raw = { "content-type": "text/plain; charset=utf-8" }; // what GitHub sends for the raw media type
  const scope = nock(API).get(`${REPO_PATH}${CONFIG_URL_PATH}`);
  if (files.repo !== undefined) return scope.reply(200, files.repo, raw);
  const org = scope.reply(404, { message: "Not Found" }).get(`/repos/${REPO_OWNER}/.github${CONFIG_URL_PATH}`);
  return files.org !== undefined ? org.reply(200, files.org, raw) : org.reply(404, { message: "Not Found" });
}

/** The 👀 on a command and the "⏳ Queued behind …" comment it gets (id `id`); `posted.body` is what was posted. */
export function mockQueuedComment(commandCommentId: number, id: number, number = 1): { posted: { body: string } } {
  const posted = { body: "" };
  nock(API)
    .post(`${REPO_PATH}/issues/comments/${commandCommentId}/reactions`, { content: "eyes" })
    .reply(201, {})
    .post(`${REPO_PATH}/issues/${number}/comments`, (b: { body: string }) => ((posted.body = b.body), true))
    .reply(201, { id });
  return { posted };
}

export interface JobCommentsMock {
  /** The id GitHub gives the job's progress comment. */
  progressId: number;
  /** Every edit of the progress comment, in order (at least the final one). */
  edits: string[];
  /** Issue or PR number. Default 1. */
  number?: number;
  /** The triggering comment, which gets the 👀. */
  trigger?: { id: number; review?: boolean };
  /** The conversation the job reads as context; false when the job ends before reading it, "maybe" when it may or may not. */
  conversation?: unknown[] | false | "maybe";
  /** `.github/crewbot.yml` as GitHub serves it (default: none anywhere); false when the job ends before reading it. */
  config?: { repo?: string; org?: string } | false;
  /** A pull request's job also reads its review comments and reviews (default none) after the conversation. */
  pull?: Omit<PullConversation, "number">;
  /**
   * Edits that may come before the terminal one (default 60: on the fake clock the edit interval
   * passes at once, so nearly every change is its own edit); 0 fails the test on any edit but the last.
   */
  extraEdits?: number;
}

export interface PullConversation {
  number?: number;
  /** `GET …/pulls/{n}/comments` (review comments). */
  reviewComments?: unknown[];
  /** `GET …/pulls/{n}/reviews`. */
  reviews?: unknown[];
}

/** What a pull request job reads beyond the conversation: its review comments and its reviews. */
export function mockPullConversation(o: PullConversation = {}): nock.Scope {
  const n = o.number ?? 1;
  return nock(API)
    .get(`${REPO_PATH}/pulls/${n}/comments`)
    .query(true)
    .reply(200, o.reviewComments ?? [])
    .get(`${REPO_PATH}/pulls/${n}/reviews`)
    .query(true)
    .reply(200, o.reviews ?? []);
}

/** A job's own traffic on its issue or PR: 👀, the progress comment, the conversation, the edits. */
export function mockJobComments(o: JobCommentsMock): nock.Scope {
  const n = o.number ?? 1;
  const config = o.config ?? (o.conversation === false ? false : {});
  if (config !== false) mockRepoConfig(config);
  let scope = nock(API);
  if (o.trigger) {
    const where = o.trigger.review ? "pulls" : "issues";
    scope = scope.post(`${REPO_PATH}/${where}/comments/${o.trigger.id}/reactions`, { content: "eyes" }).reply(201, {});
  }
  scope = scope.post(`${REPO_PATH}/issues/${n}/comments`).reply(201, { id: o.progressId });
  const conversation = o.conversation === "maybe" ? [] : o.conversation;
  if (conversation !== false) {
    const read = scope.get(`${REPO_PATH}/issues/${n}/comments`).query(true);
    scope = (o.conversation === "maybe" ? read.optionally() : read).reply(200, conversation ?? []);
  }
  if (conversation !== false && o.pull) mockPullConversation({ ...o.pull, number: n });
  const record = (body: { body: string }) => (o.edits.push(body.body), true);
  scope = scope.patch(`${REPO_PATH}/issues/comments/${o.progressId}`, record).reply(200, {}); // the terminal edit always comes
  const extra = o.extraEdits ?? 60;
  return extra === 0 ? scope : scope.patch(`${REPO_PATH}/issues/comments/${o.progressId}`, record).times(extra).optionally().reply(200, {});
}

/** What a queued command left behind when its process died: the job, the data dir to restart on, the queued comment's body. */
export interface QueuedThenCrashed {
  job: JobRecord;
  dataDir: string;
  /** The "⏳ Queued behind …" comment GitHub holds (its id is the one given). */
  body: string;
}

/**
 * A command that waits behind a job running elsewhere on its issue or PR: 👀 and "⏳ Queued behind …"
 * (GitHub gives the comment `commentId`) are posted, then the process dies before the id is stored
 * (the store's write of it fails, and the app is never used again). The job ahead then ends, so
 * the app started again on `dataDir` (given, or a new one) runs this one first. `payload` is an `issue_comment.created`.
 */
export async function queuedThenCrashed(payload: ReturnType<typeof issueCommentCreated>, deliveryId: string, commentId: number, dataDir?: string): Promise<QueuedThenCrashed> {
  const stack = await startStack([], { runner: false, ...(dataDir ? { dataDir } : {}) });
  const { queue } = stack.crewbot;
  const target = { installationId: INSTALLATION_ID, owner: REPO_OWNER, repo: REPO_NAME, number: payload.issue.number, isPullRequest: payload.issue.pull_request !== undefined };
  const ahead: NewJob = { deliveryId: `${deliveryId}-ahead`, kind: "plan", target, trigger: { sender: "Codertocat", request: "" }, repo: { cloneUrl: stack.cloneUrl, defaultBranch: "main", private: false } };
  await queue.enqueue(ahead);
  const running = (await queue.claim("elsewhere", { perInstallation: 4, global: 4, leaseMs: 60_000 }))!;

  mockInstallationToken();
  mockPermission("Codertocat", "write");
  let body = "";
  nock(API)
    .post(`${REPO_PATH}/issues/comments/${payload.comment.id}/reactions`, { content: "eyes" })
    .reply(201, {})
    .post(`${REPO_PATH}/issues/${target.number}/comments`, (b: { body: string }) => ((body = b.body), true))
    .reply(201, { id: commentId });
  const update = queue.update.bind(queue);
  vi.spyOn(queue, "update").mockImplementation(async (id, patch) => {
    if (patch.progressCommentId === commentId) throw new Error("the process died before the comment's id was stored");
    return update(id, patch);
  });
  await stack.probot.receive({ id: deliveryId, name: "issue_comment", payload } as never);
  await stack.crewbot.background.idle();
  await queue.finish(running.id, "succeeded", "✅ Done", { workerId: "elsewhere", attempt: running.attempts });
  const [job] = await queue.listRecent({ state: "queued" });
  if (!body.startsWith("⏳ Queued behind job ") || job === undefined) throw new Error(`no queued comment was posted for a queued job (${body})`);
  vi.mocked(queue.update).mockRestore();
  return { job, dataDir: stack.dataDir, body };
}

/**
 * For a file whose apps and workers share one Redis: the server (started once for the file) and the
 * stops of what each test started, run last first after it — a stop that fails is not the test's.
 */
export function useRedisStack(): { redisUrl: () => string; stops: Array<() => Promise<void>> } {
  let redis: RedisServer | undefined;
  const stops: Array<() => Promise<void>> = [];
  beforeAll(async () => void (redis = await startRedis()));
  afterAll(() => redis?.stop());
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => undefined);
  });
  return { redisUrl: () => redis!.url, stops };
}
