import { hostname } from "node:os";
import type { Probot } from "probot";
import { createClient } from "../agent/provider.js";
import { botIdentityResolver } from "../github/bot-identity.js";
import { PermissionCache } from "../github/permission-cache.js";
import { runReviewJob } from "../jobs/review-job.js";
import { SqliteReviewStore } from "../queue/sqlite-review-store.js";
import { finaliseCheckRun } from "../report/check-run.js";
import type { InstallationOctokit } from "../github/types.js";
import { runFeedbackJob } from "../jobs/feedback-job.js";
import { runImplementJob } from "../jobs/implement-job.js";
import { runPlanJob } from "../jobs/plan-job.js";
import type { JobServices } from "../jobs/services.js";
import { JobRunner, type JobHandler } from "../queue/runner.js";
import { SqliteQueue } from "../queue/sqlite-queue.js";
import type { JobRecord } from "../queue/types.js";
import { GitHubWriter, WriteGate } from "../report/github-writer.js";
import { endJobComment } from "../report/job-comment.js";
import { secretsFromEnv } from "../report/redact.js";
import { detectSandbox } from "../tools/sandbox.js";
import { createAct, enqueueJob } from "../triggers/act.js";
import { Background } from "../triggers/background.js";
import type { TriggerDeps } from "../triggers/deps.js";
import { MirrorStore } from "../workspace/mirror.js";
import { dataDir as dataDirOf } from "../jobs/job-dirs.js";

export interface CrewbotOptions {
  env: NodeJS.ProcessEnv;
  /** Tests shorten the runner's timings. */
  runner?: { pollMs?: number; leaseMs?: number; heartbeatMs?: number };
}

/** Everything one crewbot process runs, wired together; main.ts starts and stops it. */
export interface Crewbot {
  triggers: TriggerDeps;
  runner: JobRunner;
  queue: SqliteQueue;
  background: Background;
  services: JobServices;
  close(): Promise<void>;
}

/** The composition root: real services from the environment, around the Probot app's auth. */
export function composeCrewbot(app: Probot, options: CrewbotOptions): Crewbot {
  const { env } = options;
  const log = app.log;
  const dataDir = dataDirOf(env);
  const publicUrl = env.CREWBOT_PUBLIC_URL || `http://localhost:${env.PORT || 3000}`;
  const operatorSecrets = secretsFromEnv(env);
  const gates = new Map<number, WriteGate>();
  const writerFor = (installationId: number, octokit: InstallationOctokit, secrets: string[] = []) => {
    if (!gates.has(installationId)) gates.set(installationId, new WriteGate(1000));
    return new GitHubWriter({ octokit, gate: gates.get(installationId), secrets: [...operatorSecrets, ...secrets], log });
  };

  const permissions = new PermissionCache();
  const appSlug = appSlugOf(app, env);
  const services: JobServices = {
    octokitFor: (installationId) => app.auth(installationId) as Promise<InstallationOctokit>,
    tokenFor: async (octokit) => ((await octokit.auth({ type: "installation" })) as { token: string }).token,
    writerFor,
    anthropic: () => createClient({ apiKey: env.ANTHROPIC_API_KEY, baseURL: env.ANTHROPIC_BASE_URL, env }),
    sandbox: () => detectSandbox(),
    mirrors: new MirrorStore({ dataDir }),
    dataDir,
    publicUrl,
    permissions,
    botIdentity: botIdentityResolver(env, appSlug),
    reviews: new SqliteReviewStore({ dataDir }),
    log,
  };

  const handler: JobHandler = async (job, ctx) => {
    if (job.kind === "plan") return runPlanJob(job, ctx, services);
    if (job.kind === "implement") return job.target.isPullRequest ? runFeedbackJob(job, ctx, services) : runImplementJob(job, ctx, services);
    return runReviewJob(job, ctx, services);
  };

  const queue = new SqliteQueue({ dataDir });
  const runner = new JobRunner({
    queue,
    handler,
    // Stable per host: after a restart this process's old running jobs are recovered at once.
    workerId: `embedded:${hostname()}`,
    ...options.runner,
    onInterrupted: (job) => finaliseInterrupted(job, services),
    logger: log,
  });
  const background = new Background(log);
  const actDeps = { queue, runner, writerFor, background, publicUrl, log };
  const act = createAct(actDeps);
  return {
    triggers: { log, act, enqueue: async (job, octokit) => void (await enqueueJob(actDeps, job, octokit)), permissions, appSlug },
    runner,
    queue,
    background,
    services,
    async close() {
      await background.idle();
      await queue.close();
      await services.reviews.close();
    },
  };
}

/** A job that died with its process: its comment (or check run) must not be left spinning. */
async function finaliseInterrupted(job: JobRecord, services: JobServices): Promise<void> {
  if (job.review?.automatic) return finaliseCheckRun(job, services);
  if (job.progressCommentId === undefined) return;
  const writer = services.writerFor(job.target.installationId, await services.octokitFor(job.target.installationId));
  const cancelled = job.outcome?.startsWith("⏹");
  const terminal = cancelled ? ({ kind: "cancelled" } as const) : ({ kind: "failed", reason: "interrupted" } as const);
  await endJobComment(job, writer, services.publicUrl, terminal, services.log);
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
