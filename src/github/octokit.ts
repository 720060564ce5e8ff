/**
 * The one way crewbot talks to GitHub's API, in every process (the app, `npm run worker`, the
 * transcript pages): `GHE_HOST`/`GHE_PROTOCOL` name the host of every request and of every
 * installation token, and an installation's read answered 401 is retried once with a new token.
 */
import { createProbot, ProbotOctokit, type Probot } from "probot";
import { installationToken, type InstallationAuth, type InstallationToken } from "./installation-token.js";

/** `https://api.github.com`, or `<GHE_PROTOCOL>://<GHE_HOST>/api/v3` (Probot's own rule). */
export function apiBaseUrl(env: NodeJS.ProcessEnv): string {
  if (env.GHE_HOST) return `${env.GHE_PROTOCOL || "https"}://${env.GHE_HOST}/api/v3`;
  return "https://api.github.com";
}

/** `https://github.com`, or `<GHE_PROTOCOL>://<GHE_HOST>`: sign-in pages and html links. */
export function webBaseUrl(env: NodeJS.ProcessEnv): string {
  if (env.GHE_HOST) return `${env.GHE_PROTOCOL || "https"}://${env.GHE_HOST}`;
  return "https://github.com";
}

/**
 * The domain of the noreply addresses GitHub links to accounts: `users.noreply.github.com`, or
 * `users.noreply.<GHE_HOST>` (without a port) on Enterprise Server.
 */
export function noreplyDomain(env: NodeJS.ProcessEnv): string {
  return `users.noreply.${env.GHE_HOST ? env.GHE_HOST.replace(/:\d+$/, "").toLowerCase() : "github.com"}`;
}

export type OctokitClass = typeof ProbotOctokit;

type RequestFn = ((...args: unknown[]) => Promise<unknown>) & { defaults(options: { baseUrl: string }): RequestFn };
interface OctokitOptions {
  baseUrl?: string;
  auth?: { request?: RequestFn; installationId?: number | string } & Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * `Base` (ProbotOctokit, or a test's variant of it) made to honour the API host everywhere.
 * Probot gives its Octokits a `baseUrl`, but the app-auth strategy gets its own `request`
 * without one, so `octokit.auth({ type: "installation" })` — how jobs mint the token git uses —
 * went to api.github.com even under GHE_HOST. Here the strategy's request gets the same host.
 */
export function githubOctokit(env: NodeJS.ProcessEnv, Base: OctokitClass = ProbotOctokit): OctokitClass {
  const WithHost = Base.defaults((options: OctokitOptions) => {
    const baseUrl = options.baseUrl ?? apiBaseUrl(env);
    const auth = options.auth && typeof options.auth === "object" && typeof options.auth.request?.defaults === "function"
      ? { ...options.auth, request: options.auth.request.defaults({ baseUrl }) }
      : options.auth;
    return { ...options, baseUrl, ...(auth ? { auth } : {}) };
  }) as unknown as OctokitClass;
  return WithHost.plugin(renewOn401 as unknown as Parameters<OctokitClass["plugin"]>[0]) as unknown as OctokitClass;
}

/** Methods whose 401 this plugin retries; writes are the writer's (`refreshAuth`), so a write is never sent three times. */
const READS = new Set(["GET", "HEAD"]);

interface RequestErrorLike {
  status?: number;
  message: string;
}

/**
 * An installation's read answered 401 (its token expired early or was revoked): one new token
 * (`refresh: true`, which also replaces it in the shared cache for every later request), one
 * more try; a second 401 names the token as the cause.
 */
function renewOn401(octokit: InstanceType<typeof ProbotOctokit>, options: OctokitOptions): void {
  if (!options.auth || options.auth.installationId === undefined) return; // the app's own (JWT) client
  octokit.hook.error("request", async (error, request) => {
    const status = (error as RequestErrorLike).status;
    const retried = (request.request as { crewbotRenewed?: boolean } | undefined)?.crewbotRenewed === true;
    if (status !== 401 || !READS.has(String(request.method).toUpperCase())) throw error;
    if (retried) throw rejectedToken(error as RequestErrorLike);
    await renewInstallationToken(octokit);
    const { authorization: _old, ...headers } = (request.headers ?? {}) as Record<string, unknown>;
    return octokit.request({ ...request, headers, request: { ...request.request, crewbotRenewed: true } } as never);
  });
}

/** The error of a request GitHub refused twice, once with a token minted for the retry. */
export function rejectedToken(error: RequestErrorLike): RequestErrorLike {
  error.message = `GitHub refused the installation token (401) even after a new one was minted: the token was revoked or the app lost access to this installation (${error.message})`;
  return error;
}

/** Mints a new installation token now (not the cached one); later requests of this installation use it. */
export function renewInstallationToken(octokit: InstallationAuth): Promise<InstallationToken> {
  return installationToken(octokit, { renew: true });
}

export interface GitHubProbotOptions {
  env: NodeJS.ProcessEnv;
  /** The Octokit class to start from (tests pass one without retries). */
  Octokit?: OctokitClass;
}

/** A Probot for a process without a webhook server (`npm run worker`), from the environment like `npm start`'s. */
export function githubProbot({ env, Octokit }: GitHubProbotOptions): Probot {
  return createProbot({ env, overrides: { baseUrl: apiBaseUrl(env), Octokit: githubOctokit(env, Octokit) } });
}
