import { getPrivateKey } from "@probot/get-private-key";
import { run, type Server } from "probot";
import { composeCrewbot, queueDepth, type Crewbot, type CrewbotOptions } from "./app/compose.js";
import { applyDotEnv } from "./app/dotenv.js";
import { githubOctokit } from "./github/octokit.js";
import { crewbotApp } from "./index.js";
import { dataDir } from "./jobs/job-dirs.js";
import { openStores } from "./store/open-stores.js";
import { metricsAccess, metricsHandler } from "./metrics/metrics.js";
import { sandboxHealth } from "./tools/sandbox-policy.js";

export interface Started {
  server: Server;
  /** Undefined in setup mode (no credentials yet). */
  crewbot?: Crewbot;
  stop(): Promise<void>;
}

/**
 * Starts the webhook server and the embedded worker. Without APP_ID and a private key, Probot
 * serves its setup page, which registers the app on GitHub from app.yml.
 */
export interface StartOptions extends Partial<CrewbotOptions> {
  /**
   * Run the embedded worker. Default: yes with the embedded queue; no with `REDIS_URL`, where this
   * process only receives and enqueues and `npm run worker` processes run the jobs.
   */
  worker?: boolean;
}

export async function start(options: StartOptions & Parameters<typeof run>[1] = {}): Promise<Started> {
  const env = options.env ?? process.env;
  const configured = Boolean(env.APP_ID) && Boolean(safePrivateKey(env));
  if (!configured) {
    const server = await run(() => {}, options);
    return { server, stop: () => server.stop() };
  }
  let crewbot: Crewbot | undefined;
  const stores = await openStores(env, dataDir(env));
  const server = await run(
    async (app, appOptions) => {
      crewbot = composeCrewbot(app, { env, runner: options.runner, stores, clock: options.clock, writeSpacingMs: options.writeSpacingMs });
      await crewbotApp(crewbot.triggers)(app, appOptions);
      appOptions.addHandler((req, res) => crewbot!.web.handle(req, res)); // /jobs, /insights, /auth/*
      appOptions.addHandler(metricsHandler(crewbot.services.observe.metrics, () => health(crewbot!), metricsAccess(env), crewbot.services.observe.log));
    },
    // GHE_HOST for every request and every installation token, the webhook handlers' and jobs' alike.
    { ...options, env, Octokit: githubOctokit(env, options.Octokit) },
  );
  const worker = options.worker ?? stores.kind === "sqlite";
  if (worker) await crewbot!.runner.start();
  return {
    server,
    crewbot,
    async stop() {
      // Stop taking jobs, let running ones finish (or end them with a clear comment), then close.
      if (worker) await crewbot!.runner.stop({ drain: true, timeoutMs: 60_000 });
      crewbot!.web.close(); // live transcript streams would hold the server open
      await server.stop();
      await crewbot!.close();
    },
  };
}

/** What `/healthz` checks (the queue answers) and shows (whether commands can be sandboxed). */
async function health(crewbot: Crewbot): Promise<{ sandbox: Record<string, unknown> }> {
  const [, sandbox] = await Promise.all([queueDepth(crewbot.queue).queued(), crewbot.services.runtime.sandbox()]);
  return { sandbox: sandboxHealth(sandbox) };
}

function safePrivateKey(env: NodeJS.ProcessEnv): string | null {
  try {
    return getPrivateKey({ env });
  } catch {
    return null;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  applyDotEnv();
  const started = await start();
  const shutdown = async (signal: string) => {
    console.info(`${signal}: stopping crewbot (running jobs finish or are finalised)…`);
    await started.stop();
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
}
