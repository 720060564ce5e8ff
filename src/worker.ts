/**
 * `npm run worker`: a process that only runs jobs — any number of them, on any machines that
 * share `REDIS_URL`, each with its own data dir (job files reach the others through Redis). It takes the
 * app's credentials to act as the installation, receives no webhooks, and serves `/healthz` and
 * `/metrics` on `CREWBOT_WORKER_PORT` when set.
 */
import { createServer, type Server } from "node:http";
import { hostname } from "node:os";
import { getPrivateKey } from "@probot/get-private-key";
import { githubProbot, type OctokitClass } from "./github/octokit.js";
import { composeCrewbot, type Crewbot, type CrewbotOptions } from "./app/compose.js";
import { applyDotEnv } from "./app/dotenv.js";
import { dataDir } from "./jobs/job-dirs.js";
import { metricsAccess, metricsHandler } from "./metrics/metrics.js";
import { sandboxHealth } from "./tools/sandbox-policy.js";
import { openStores } from "./store/open-stores.js";

export interface WorkerOptions extends Partial<CrewbotOptions> {
  env?: NodeJS.ProcessEnv;
  /** The Octokit class (tests pass one without retries). */
  Octokit?: OctokitClass;
}

export interface StartedWorker {
  crewbot: Crewbot;
  server?: Server;
  stop(): Promise<void>;
}

export async function startWorker(options: WorkerOptions = {}): Promise<StartedWorker> {
  const env = options.env ?? process.env;
  if (!env.APP_ID) throw new Error("APP_ID is not set: a worker acts as the GitHub App and needs its credentials");
  if (!getPrivateKey({ env })) throw new Error("PRIVATE_KEY or PRIVATE_KEY_PATH is not set: a worker needs the app's private key");
  if (!env.REDIS_URL) console.warn("REDIS_URL is not set: this worker shares the embedded SQLite queue of its data dir (one machine only).");

  const stores = await openStores(env, dataDir(env));
  // As `npm start` builds its Probot (GHE_HOST for every request and token, LOG_LEVEL, …), without
  // a server; loading an empty app waits for its logger and auth to be ready.
  const probot = githubProbot({ env, Octokit: options.Octokit });
  await probot.load(() => {});
  // Unique per process: a starting runner takes jobs held under its own id for its dead
  // predecessor's, so two workers on one host must not share one. CREWBOT_WORKER_ID keeps it
  // stable across restarts (then the predecessor's jobs are recovered at once, not after the lease).
  const workerId = env.CREWBOT_WORKER_ID || `worker:${hostname()}:${process.pid}`;
  const crewbot = composeCrewbot(probot, { env, stores, runner: { ...options.runner, workerId }, metrics: options.metrics, clock: options.clock, writeSpacingMs: options.writeSpacingMs });
  await crewbot.runner.start();

  let server: Server | undefined;
  const port = env.CREWBOT_WORKER_PORT ? Number(env.CREWBOT_WORKER_PORT) : undefined;
  if (port !== undefined) {
    const handle = metricsHandler(crewbot.services.observe.metrics, async () => ({ sandbox: sandboxHealth(await crewbot.services.runtime.sandbox()) }), metricsAccess(env), crewbot.services.observe.log);
    server = createServer((req, res) => {
      handle(req, res).then((done) => done || res.writeHead(404).end("not found"), () => res.writeHead(500).end());
    });
    await new Promise<void>((resolve) => server!.listen(port, resolve));
  }
  probot.log.info({ workerId: crewbot.runner.workerId, queue: crewbot.queueKind, port }, "crewbot worker started");
  return {
    crewbot,
    server,
    async stop() {
      await crewbot.runner.stop({ drain: true, timeoutMs: 60_000 });
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      await crewbot.close();
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  applyDotEnv();
  const worker = await startWorker().catch((error: Error) => {
    console.error(`crewbot worker: ${error.message}`);
    process.exit(1);
  });
  const shutdown = async (signal: string) => {
    console.info(`${signal}: stopping the worker (running jobs finish or are finalised)…`);
    await worker.stop();
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
}
