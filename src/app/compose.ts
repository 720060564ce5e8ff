import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Probot } from "probot";
import { applyModelSettings, checkModelsInBackground, type ModelSettings } from "../agent/model-settings.js";
import { createClient, hasModelAccess } from "../agent/provider.js";
import { BUNDLED_AGENTS_DIR, loadAgents } from "../chain/agents.js";
import { DEFAULT_MODEL } from "../chain/run-chain.js";
import { botIdentityResolver } from "../github/bot-identity.js";
import { PermissionCache } from "../github/permission-cache.js";
import { installationToken } from "../github/installation-token.js";
import { noreplyDomain, renewInstallationToken } from "../github/octokit.js";
import { operatorLimits } from "../installations/limits.js";
import { applyInstallationEvent } from "../installations/apply.js";
import { coverageRefusal } from "../installations/coverage.js";
import { Metrics } from "../metrics/metrics.js";
import type { JobQueue } from "../queue/job-queue.js";
import { openSqliteStores, type OpenedStores } from "../store/open-stores.js";
import type { InstallationOctokit } from "../github/types.js";
import { runJob } from "../jobs/run-job.js";
import { keepPullRequestEnd } from "../jobs/pull-request-end.js";
import { insightsSource } from "../insights/source.js";
import type { InsightsSource } from "../insights/types.js";
import { finaliseInterrupted as finaliseOnSurface } from "../jobs/job-surfaces.js";
import type { GitHubPort, JobServices, RecordsPort, RuntimePort } from "../jobs/services.js";
import { JobRunner, type JobHandler } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import type { LearnRequest } from "../learnings/types.js";
import { type Clock, DEFAULT_WRITE_SPACING_MS, GitHubWriter, realClock, WriteGate } from "../report/github-writer.js";
import { redact, redactingLogger, secretsFromEnv } from "../secrets/redact.js";
import { loadMcpConfig, mcpSecrets, type McpServerConfig } from "../mcp/config.js";
import { registrySettings } from "../dependencies/registry.js";
import { describeSandbox, sandboxFor, sandboxPolicy } from "../tools/sandbox-policy.js";
import { TriggerConfigCache } from "../config/trigger-config.js";
import { createAct, enqueueJob } from "../triggers/carry-out.js";
import { Admission, commandRateLimit, localAdmission } from "../triggers/admission.js";
import { Background } from "../triggers/background.js";
import { ReplyLimiter } from "../triggers/stranger-replies.js";
import type { TriggerDeps } from "../triggers/deps.js";
import { MirrorStore } from "../workspace/mirror.js";
import { dataDir as dataDirOf } from "../jobs/job-dirs.js";
import { openTranscripts, type Transcripts } from "../transcripts/index.js";
import { JobFiles, withSharedFiles } from "../transcripts/job-files.js";
import { activeIn, DAY_MS, jobDirsTarget, jobsTarget, reviewsTarget, startRetention, type RetentionTarget } from "../store/retention.js";
import { sqliteInstallationsTargets } from "../store/sqlite/installations-retention.js";
import { createWebHandler, type WebHandler } from "../web/handler.js";

export interface CrewbotOptions {
  env: NodeJS.ProcessEnv;
  /** Tests shorten the timings; a worker process names itself (`workerId`). */
  runner?: { pollMs?: number; leaseMs?: number; heartbeatMs?: number; workerId?: string };
  /** The process's metrics registry; a new one by default (tests make one without the process defaults). */
  metrics?: Metrics;
  /** Every store (`openStores`: Redis when `REDIS_URL` is set); the embedded SQLite ones by default. */
  stores?: OpenedStores;
  /**
   * The clock the app's own waits between GitHub writes are timed by (real by default). Tests pass a
   * fake one: writes keep their order and spacing in virtual time, without real waits.
   */
  clock?: Clock;
  /** The least time between two GitHub writes of an installation; default 1000 ms. */
  writeSpacingMs?: number;
}

/** Everything one crewbot process runs, wired together; main.ts starts and stops it. */
export interface Crewbot {
  triggers: TriggerDeps;
  runner: JobRunner;
  queue: JobQueue;
  queueKind: OpenedStores["kind"];
  background: Background;
  services: JobServices;
  /** The transcript store and recorder, and the pages on the app's server (`/jobs`, `/auth/*`). */
  transcripts: Transcripts;
  web: WebHandler;
  close(): Promise<void>;
}

/** What the composition's parts share: read from the environment once. */
interface Root {
  env: NodeJS.ProcessEnv;
  /** The operator's secrets: redacted from every log line and everything written. */
  operatorSecrets: string[];
  /** The operator's remote MCP servers (`CREWBOT_MCP_CONFIG`). */
  mcpServers: McpServerConfig[];
  log: Probot["log"];
  dataDir: string;
  publicUrl: string;
  limits: ReturnType<typeof operatorLimits>;
  stores: OpenedStores;
  /** The repositories' figures over the stores: one reader for `/crewbot insights` and `/insights`. */
  insights: InsightsSource;
  metrics: Metrics;
  /** Who the app is on GitHub: its id (`APP_ID`) and its slug, asked once. */
  appId: number | undefined;
  appSlug: () => Promise<string>;
  /** Commenters' permissions: the triggers ask, the jobs reuse. */
  permissions: PermissionCache;
  /** Given by the caller (tests); the real clock and GitHub's spacing otherwise. */
  writes: Pick<CrewbotOptions, "clock" | "writeSpacingMs">;
}

/** The composition root: real services from the environment, around the Probot app's auth. */
export function composeCrewbot(app: Probot, options: CrewbotOptions): Crewbot {
  const { env } = options;
  // CREWBOT_MCP_CONFIG: a bad file stops the app here, naming it; its header values are secrets like the environment's.
  const mcpServers = loadMcpConfig(env);
  const operatorSecrets = [...secretsFromEnv(env), ...mcpSecrets(mcpServers)];
  // Every line crewbot logs is redacted (known token shapes, the operator's secrets), fields and errors too.
  const log = redactingLogger(app.log, () => operatorSecrets);
  const dataDir = dataDirOf(env);
  const publicUrl = env.CREWBOT_PUBLIC_URL || `http://localhost:${env.PORT || 3000}`;
  const limits = operatorLimits(env);
  // CREWBOT_MODEL_RETRY_MINUTES and CREWBOT_PRICES: a bad value or file stops the app here, naming it.
  const modelSettings = applyModelSettings(env);
  const stores = options.stores ?? openSqliteStores(dataDir);
  const metrics = options.metrics ?? new Metrics(queueDepth(stores.queue));
  const who = { appId: appIdOf(env), appSlug: appSlugOf(app, env), permissions: new PermissionCache() };
  const root: Root = { env, operatorSecrets, mcpServers, log, dataDir, publicUrl, limits, stores, insights: insightsSource(stores.insights), metrics, ...who, writes: { clock: options.clock, writeSpacingMs: options.writeSpacingMs } };
  const transcripts = openTranscripts({ env, dataDir, secrets: operatorSecrets, log, autoPrune: false, store: stores.transcripts }); // pruned by the retention sweep
  // The runner is made after the services it runs jobs with; a proposal is only asked for once jobs run.
  const services = jobServices(app, root, transcripts, modelSettings, (request) => enqueueLearnings(request, stores.queue, runner, log));

  // A configured model the endpoint does not list is logged once by name; never fatal.
  if (hasModelAccess(env)) void checkModelsInBackground(services.runtime.anthropic, async () => [...(await configuredModels()), ...(modelSettings.firstLookModel ? [modelSettings.firstLookModel] : [])], log);
  const retentionDays = limits.retentionDays ?? 30;
  const retention = startRetention({ days: retentionDays, log, targets: retentionTargets(stores, transcripts, services.runtime, stores.kind === "sqlite", retentionDays) });

  const { runner, jobFiles } = jobRunner(root, services, transcripts, options.runner);
  const background = new Background(log);
  const triggers = triggerDeps(root, services, runner, background);
  const web = createWebHandler({ env, publicUrl, queue: stores.queue, store: transcripts.store, dataDir, secrets: operatorSecrets, log, insights: root.insights, ...(jobFiles ? { jobFiles } : {}) });
  return {
    triggers,
    runner,
    queue: stores.queue,
    queueKind: stores.kind,
    background,
    services,
    transcripts,
    web,
    async close() {
      await retention.stop();
      await background.idle();
      web.close();
      await transcripts.close(); // the recorder's last entries first, then every store
      await stores.close();
    },
  };
}

/** What every job uses, by port: GitHub, where the agents run, the stores it writes, the operator's settings, what it reports. */
function jobServices(app: Probot, root: Root, transcripts: Transcripts, modelSettings: ModelSettings, proposeLearnings: RecordsPort["proposeLearnings"]): JobServices {
  const { env, log, metrics, stores } = root;
  const sandbox = probedSandbox(env, log, metrics);
  return {
    github: githubPort(app, root),
    runtime: {
      anthropic: () => createClient({ env, retry: modelSettings.retry, secrets: root.operatorSecrets }),
      sandbox: () => sandbox,
      mirrors: new MirrorStore({ dataDir: root.dataDir }),
      dataDir: root.dataDir,
      npmRegistry: registrySettings(env),
      ...(root.mcpServers.length > 0 ? { mcpServers: root.mcpServers } : {}),
      ...(modelSettings.firstLookModel ? { firstLookModel: modelSettings.firstLookModel } : {}),
    },
    records: { reviews: stores.reviews, learnings: stores.learnings, ciFixRounds: stores.ciFixRounds, pauses: stores.pauses, insights: stores.insights, proposeLearnings },
    operator: { limits: root.limits, usage: stores.installations, publicUrl: root.publicUrl },
    observe: { log, metrics, transcripts: transcripts.recorder },
  };
}

/** GitHub for the jobs: installation clients (their rate limit counted), tokens, the one writer, and who the app is. */
function githubPort(app: Probot, root: Root): GitHubPort {
  const { env, metrics, appSlug } = root;
  return {
    octokitFor: async (installationId) => {
      const octokit = (await app.auth(installationId)) as InstallationOctokit;
      octokit.hook.after("request", (response) => metrics.githubRateLimit(installationId, response.headers["x-ratelimit-remaining"]));
      return octokit;
    },
    tokenFor: async (octokit, options) => (await installationToken(octokit, options)).token,
    writerFor: writersFor(root),
    botIdentity: botIdentityResolver(env, appSlug),
    permissions: root.permissions,
    appId: root.appId,
    appSlug,
    noreplyDomain: noreplyDomain(env),
  };
}

/** The one writer per write, over one write gate per installation (spacing and budget). */
function writersFor(root: Root): GitHubPort["writerFor"] {
  const { stores, operatorSecrets, log, writes } = root;
  const gates = new Map<number, WriteGate>();
  // A given clock also times the shared budget: the store's own time would not move with a fake one.
  const useClock = writes.clock !== undefined;
  // With Redis the installation's spacing and budget are one for every process (stores.shared).
  const shared = (installationId: number) => stores.shared && { store: stores.shared.writeBudget, installationId, useClock };
  const gateFor = (installationId: number) => new WriteGate(writes.writeSpacingMs ?? DEFAULT_WRITE_SPACING_MS, writes.clock ?? realClock, {}, shared(installationId));
  return (installationId, octokit, secrets = []) => {
    if (!gates.has(installationId)) gates.set(installationId, gateFor(installationId));
    // A write answered 401 gets a newly minted token (redacted like the first) and one more try.
    const refreshAuth = async (): Promise<void> => writer.addSecret((await renewInstallationToken(octokit)).token);
    const writer: GitHubWriter = new GitHubWriter({ octokit, gate: gates.get(installationId), secrets: [...operatorSecrets, ...secrets], log, refreshAuth });
    return writer;
  };
}

/** Probed once at start (a bad policy variable stops the app here), told in one log line and the gauges. */
function probedSandbox(env: NodeJS.ProcessEnv, log: Probot["log"], metrics: Metrics): ReturnType<typeof sandboxFor> {
  const sandbox = sandboxFor(env, sandboxPolicy(env));
  void sandbox.then((info) => {
    (info.available || info.allowUnsandboxed ? log.info : log.warn).call(log, describeSandbox(info));
    metrics.sandbox(info);
  });
  return sandbox;
}

/** The runner that claims and runs the queue's jobs in this process, each counted, logged and its files shared. */
function jobRunner(root: Root, services: JobServices, transcripts: Transcripts, options: CrewbotOptions["runner"]): { runner: JobRunner; jobFiles: JobFiles | undefined } {
  const { stores, limits, log, metrics } = root;
  // Stable per host: after a restart this process's old running jobs are recovered at once.
  const workerId = options?.workerId ?? `embedded:${hostname()}`;
  // With Redis a job's files reach every process: the app's pages, a worker resuming the job.
  const jobFiles = stores.jobFiles && new JobFiles(stores.jobFiles, root.dataDir, workerId);
  const handler = measured(metrics, log, root.operatorSecrets, (job, ctx) => withSharedFiles(jobFiles, job.id, log, () => runJob(job, ctx, services), () => transcripts.recorder.flush(job.id)));
  const runner = new JobRunner({
    queue: stores.queue,
    handler,
    workerId,
    limits: { perInstallation: limits.perInstallation, global: limits.global ?? Number.MAX_SAFE_INTEGER },
    maxActive: limits.perWorker,
    ...options,
    onInterrupted: (job) => finaliseInterrupted(job, services),
    logger: log,
  });
  return { runner, jobFiles };
}

/** What the webhook handlers use: who may ask, and how a decision is carried out (enqueue, cancel, answer). */
function triggerDeps(root: Root, services: JobServices, runner: JobRunner, background: Background): TriggerDeps {
  const { stores, limits, log } = root;
  const { queue, installations } = stores;
  // Replies to people who start nothing: once per person and issue an hour, counted for every process on Redis.
  const actDeps = { queue, pauses: stores.pauses, insights: root.insights, runner, writerFor: services.github.writerFor, replies: new ReplyLimiter(stores.shared?.replyCounters), background, publicUrl: root.publicUrl, log };
  return {
    log,
    act: createAct(actDeps),
    enqueue: async (job, octokit) => void (await enqueueJob(actDeps, job, octokit)),
    pullRequestEnded: (end, octokit) => keepPullRequestEnd(end, octokit, services),
    installationEvent: async (event, payload) => void (await applyInstallationEvent(event, payload, { installations, queue, runner, log })),
    permissions: root.permissions,
    appSlug: root.appSlug,
    ...(root.appId !== undefined ? { appId: root.appId } : {}),
    // Redeliveries and the per-person rate limit (CREWBOT_COMMANDS_*): shared by every process on Redis.
    admission: stores.shared?.admission(commandRateLimit(limits)) ?? localAdmission(new Admission(commandRateLimit(limits))),
    coverage: async (installationId, repository) => coverageRefusal(await installations.get(installationId), repository),
    repoConfig: new TriggerConfigCache(log).repoConfig,
  };
}

/**
 * A due candidate's proposal, queued as a learn job on the pull request where it became due. One
 * queued proposal of a repository is enough: it reads every candidate when it runs. A running one
 * may have read them before this one was due, so another is queued behind it.
 */
async function enqueueLearnings(request: LearnRequest, queue: JobQueue, runner: Pick<JobRunner, "wake">, log: Probot["log"]): Promise<void> {
  const { installationId, owner, repo, number, reason } = request;
  const sameRepo = (job: JobRecord) => job.kind === "learn" && job.learn?.action === "propose" && `${job.target.owner}/${job.target.repo}`.toLowerCase() === `${owner}/${repo}`.toLowerCase();
  const waiting = (await queue.listRecent({ state: "queued", limit: 500 })).find(sameRepo);
  if (waiting) return log.info({ jobId: waiting.id, owner, repo, reason }, "learnings proposal already queued");
  const { job } = await queue.enqueue({
    deliveryId: `learnings-${randomUUID()}`,
    kind: "learn",
    target: { installationId, owner, repo, number, isPullRequest: true },
    trigger: { sender: "crewbot", request: "" },
    // The job asks GitHub for the default branch: a candidate knows only the repository's name.
    repo: { cloneUrl: "", defaultBranch: "", private: true },
    learn: { action: "propose", automatic: true, reason },
  });
  log.info({ jobId: job.id, owner, repo, number, reason }, "learnings proposal queued");
  runner.wake();
}

/** The models the bundled agents use (their own `model`, else the default); repositories may name others per job. */
async function configuredModels(): Promise<string[]> {
  const agents = await loadAgents([BUNDLED_AGENTS_DIR]);
  return [DEFAULT_MODEL, ...[...agents.values()].flatMap((agent) => (agent.model ? [agent.model] : []))];
}

/** What the retention sweep deletes, oldest first in the data flow: jobs, reviews, usage, transcripts, job dirs, mirrors. */
function retentionTargets(stores: OpenedStores, transcripts: Transcripts, runtime: RuntimePort, sqlite: boolean, days: number): RetentionTarget[] {
  return [
    jobsTarget(stores.queue, runtime.dataDir),
    reviewsTarget(stores.reviews),
    { name: "learning candidates and uses", prune: (before: number) => stores.learnings.prune(before) },
    { name: "ci-fix rounds", prune: (before: number) => stores.ciFixRounds.prune(before) },
    { name: "pauses", prune: (before: number) => stores.pauses.prune(before) },
    { name: "insight events", prune: (before: number) => stores.insights.prune(before) },
    ...(sqlite ? sqliteInstallationsTargets(runtime.dataDir) : []),
    { name: "transcripts", prune: (_before, now) => transcripts.prune(now) },
    jobDirsTarget(runtime.dataDir, activeIn(stores.queue)),
    ...(stores.jobFiles ? [{ name: "shared job files", prune: (before: number) => stores.jobFiles!.prune(before) }] : []),
    { name: "mirrors", prune: async () => (await runtime.mirrors.pruneMirrors(days * DAY_MS)).length },
  ];
}

/** Jobs waiting and running, for the queue gauges (read when /metrics is scraped). */
export function queueDepth(queue: Pick<JobQueue, "count">) {
  return { queued: () => queue.count("queued"), running: () => queue.count("running") };
}

/**
 * Every job's end counted and logged with the job id, repository and delivery id. The outcome the
 * queue stores (and the job list and logs show) is redacted like the comment it mirrors.
 */
function measured(metrics: Metrics, log: Probot["log"], secrets: string[], handler: JobHandler): JobHandler {
  return async (job, ctx) => {
    const started = Date.now();
    const fields = { jobId: job.id, deliveryId: job.deliveryId, repo: `${job.target.owner}/${job.target.repo}`, number: job.target.number, kind: job.kind };
    log.info(fields, "job started");
    try {
      const ended = await handler(job, ctx);
      const result = ended.outcome === undefined ? ended : { ...ended, outcome: redact(ended.outcome, secrets) };
      metrics.jobEnded(job.kind, result.state, Date.now() - started);
      log.info({ ...fields, state: result.state, outcome: result.outcome }, "job handler returned");
      return result;
    } catch (error) {
      metrics.jobEnded(job.kind, "failed", Date.now() - started);
      // The runner stores and logs the message as the outcome.
      if (error instanceof Error) error.message = redact(error.message, secrets);
      throw error;
    }
  };
}

/** A job that died with its process: its comment (or check run, or thread) must not be left spinning. */
function finaliseInterrupted(job: JobRecord, services: JobServices): Promise<void> {
  return finaliseOnSurface(job, services);
}


/** `APP_ID` as a number, when it is one. */
function appIdOf(env: NodeJS.ProcessEnv): number | undefined {
  return env.APP_ID && Number.isSafeInteger(Number(env.APP_ID)) ? Number(env.APP_ID) : undefined;
}

/** The app's slug, from `CREWBOT_APP_SLUG` or asked of GitHub once (`GET /app`, as the app). */
function appSlugOf(app: Probot, env: NodeJS.ProcessEnv): () => Promise<string> {
  let slug: Promise<string> | undefined;
  return () => {
    if (env.CREWBOT_APP_SLUG) return Promise.resolve(env.CREWBOT_APP_SLUG);
    slug ??= app
      .auth()
      .then((octokit) => octokit.request("GET /app"))
      .then(({ data }) => (data as { slug: string }).slug);
    // A failed lookup is asked again next time, not remembered.
    slug.catch(() => (slug = undefined));
    return slug;
  };
}
