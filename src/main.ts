import { getPrivateKey } from "@probot/get-private-key";
import { run, type Server } from "probot";
import { composeCrewbot, type Crewbot, type CrewbotOptions } from "./app/compose.js";
import { crewbotApp } from "./index.js";

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
  /** Run the embedded worker (default true); without it this process only receives and enqueues. */
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
  const server = await run(
    async (app, appOptions) => {
      crewbot = composeCrewbot(app, { env, runner: options.runner });
      await crewbotApp(crewbot.triggers)(app, appOptions);
    },
    { ...options, env },
  );
  const worker = options.worker !== false;
  if (worker) await crewbot!.runner.start();
  return {
    server,
    crewbot,
    async stop() {
      // Stop taking jobs, let running ones finish (or end them with a clear comment), then close.
      if (worker) await crewbot!.runner.stop({ drain: true, timeoutMs: 60_000 });
      await server.stop();
      await crewbot!.close();
    },
  };
}

function safePrivateKey(env: NodeJS.ProcessEnv): string | null {
  try {
    return getPrivateKey({ env });
  } catch {
    return null;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = await start();
  const shutdown = async (signal: string) => {
    console.info(`${signal}: stopping crewbot (running jobs finish or are finalised)…`);
    await started.stop();
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
}
