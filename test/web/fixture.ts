/**
 * The transcript pages against stand-ins: the web handler on a plain node:http server, a stand-in
 * GitHub (OAuth web flow and the few API routes it asks) on another local port, an in-memory job
 * list and a real SQLite transcript store in a temp dir.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { InsightsSource } from "../../src/insights/types.js";
import type { JobRecord, JobState } from "../../src/queue/types.js";
import type { ListOptions } from "../../src/queue/job-queue.js";
import { TranscriptRecorder } from "../../src/transcripts/recorder.js";
import { SqliteTranscriptStore } from "../../src/store/sqlite/transcripts.js";
import { createWebHandler, type WebHandler } from "../../src/web/handler.js";
import { tempDir } from "../helpers/git-repo.js";
import { checkedLikeGitHub } from "../helpers/github-refusals.js";

export const CLIENT_ID = "Iv1.standin0client";
export const CLIENT_SECRET = "standin-client-secret-0123456789";
export const USER_TOKEN = `ghu_${"U5erT0ken".repeat(4)}`;
export const OPERATOR_SECRET = "operator-webhook-secret-xyz";

export interface StandIn {
  url: string;
  host: string;
  /** `owner/repo` (lower case) the user can read. */
  readable: Set<string>;
  requests: string[];
  close(): Promise<void>;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** GitHub as far as sign-in and "can this user read the repository" go. */
/**
 * `installationRepos`: what `/user/installations/{id}/repositories` lists for the user (default: the
 * readable ones; "refuse": a 403, as for a token of another OAuth client).
 */
export async function startStandInGitHub(readable: string[], publicRepos: string[] = [], installationRepos: string[] | "refuse" = readable): Promise<StandIn> {
  const requests: string[] = [];
  const open = new Set(publicRepos.map((r) => r.toLowerCase()));
  const codes = new Set<string>();
  const state = { readable: new Set(readable.map((r) => r.toLowerCase())) };
  // Checked against GitHub's own description first: a request GitHub would refuse fails the test.
  const server = createServer(checkedLikeGitHub(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    requests.push(`${req.method} ${url.pathname}`);
    if (url.pathname === "/login/oauth/authorize") {
      if (url.searchParams.get("client_id") !== CLIENT_ID) return json(res, 400, { error: "bad client" });
      const code = `code-${codes.size + 1}`;
      codes.add(code);
      const back = new URL(url.searchParams.get("redirect_uri") ?? "");
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (url.pathname === "/login/oauth/access_token" && req.method === "POST") {
      const form = new URLSearchParams(await bodyOf(req));
      if (req.headers.accept !== "application/json") return json(res, 406, { error: "accept" });
      if (form.get("client_secret") !== CLIENT_SECRET || !codes.delete(form.get("code") ?? "")) return json(res, 200, { error: "bad_verification_code" });
      return json(res, 200, { access_token: USER_TOKEN, token_type: "bearer", scope: "" });
    }
    const anonymous = /^\/api\/v3\/repos\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (!req.headers.authorization && anonymous) {
      const key = `${decodeURIComponent(anonymous[1]!)}/${decodeURIComponent(anonymous[2]!)}`.toLowerCase();
      return open.has(key) ? json(res, 200, { full_name: key, private: false }) : json(res, 404, { message: "Not Found" });
    }
    if (req.headers.authorization !== `Bearer ${USER_TOKEN}`) return json(res, 401, { message: "Bad credentials" });
    if (url.pathname === "/api/v3/user") return json(res, 200, { login: "octocat", id: 583231 });
    if (url.pathname.startsWith("/api/v3/user/installations") && installationRepos === "refuse") return json(res, 403, { message: "You must authenticate with an access token authorized to a GitHub App in order to list installations" });
    const perPage = Number(url.searchParams.get("per_page") ?? 30);
    const page = Number(url.searchParams.get("page") ?? 1);
    const paged = <T>(items: T[]) => items.slice((page - 1) * perPage, page * perPage);
    if (url.pathname === "/api/v3/user/installations") return json(res, 200, { total_count: 1, installations: paged([{ id: 7, account: { login: "acme" } }]) });
    if (url.pathname === "/api/v3/user/installations/7/repositories" && installationRepos !== "refuse") {
      return json(res, 200, { total_count: installationRepos.length, repositories: paged(installationRepos.map((full_name) => ({ full_name, private: true }))) });
    }
    const repo = /^\/api\/v3\/repos\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (repo) {
      const key = `${decodeURIComponent(repo[1]!)}/${decodeURIComponent(repo[2]!)}`.toLowerCase();
      return state.readable.has(key) ? json(res, 200, { full_name: key, private: true }) : json(res, 404, { message: "Not Found" });
    }
    json(res, 404, { message: "Not Found" });
  }));
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    readable: state.readable,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Just what the pages read of the queue. */
export class FakeJobs {
  readonly jobs = new Map<string, JobRecord>();
  async get(id: string): Promise<JobRecord | undefined> {
    return this.jobs.get(id);
  }
  async listRecent(opts: ListOptions = {}): Promise<JobRecord[]> {
    return [...this.jobs.values()].sort((a, b) => b.createdAt - a.createdAt).slice(0, opts.limit ?? 50);
  }
  add(id: string, repo: string, state: JobState, extra: Partial<JobRecord> = {}): JobRecord {
    const [owner, name] = repo.split("/") as [string, string];
    const now = Date.now();
    const job: JobRecord = {
      id,
      deliveryId: `d-${id}`,
      kind: "plan",
      target: { installationId: 1, owner, repo: name, number: 7, isPullRequest: false },
      trigger: { sender: "octocat", request: "Plan the <b>login</b> page" },
      repo: { cloneUrl: `https://github.com/${repo}.git`, defaultBranch: "main", private: true },
      subject: { title: "Add a login page", body: "", author: "octocat" },
      state,
      attempts: 1,
      createdAt: now - 60_000 + this.jobs.size,
      startedAt: now - 50_000,
      ...(state === "running" || state === "queued" ? {} : { finishedAt: now - 10_000, outcome: "✅ Done · 40s · 1.2k tokens · $0.0123" }),
      ...extra,
    };
    this.jobs.set(id, job);
    return job;
  }
}

export interface WebFixture {
  url: string;
  github: StandIn;
  jobs: FakeJobs;
  store: SqliteTranscriptStore;
  recorder: TranscriptRecorder;
  dataDir: string;
  web: WebHandler;
  close(): Promise<void>;
}

export async function startWebFixture(options: { readable?: string[]; publicUrl?: string; publicRepos?: string[]; installationRepos?: string[] | "refuse"; insights?: InsightsSource; now?: () => number } = {}): Promise<WebFixture> {
  const github = await startStandInGitHub(options.readable ?? ["acme/open"], options.publicRepos, options.installationRepos ?? options.readable ?? ["acme/open"]);
  const dataDir = await tempDir("crewbot-web-");
  const store = new SqliteTranscriptStore({ dataDir });
  const recorder = new TranscriptRecorder({ store, dataDir, secrets: [OPERATOR_SECRET], flushMs: 20 });
  const jobs = new FakeJobs();
  const server = createServer();
  const port = await listen(server);
  const url = `http://127.0.0.1:${port}`;
  const env = {
    GITHUB_CLIENT_ID: CLIENT_ID,
    GITHUB_CLIENT_SECRET: CLIENT_SECRET,
    GHE_HOST: github.host,
    GHE_PROTOCOL: "http",
    WEBHOOK_SECRET: OPERATOR_SECRET,
  };
  const extra = { ...(options.insights ? { insights: options.insights } : {}), ...(options.now ? { now: options.now } : {}) };
  const web = createWebHandler({ env, publicUrl: options.publicUrl ?? url, queue: jobs, store, dataDir, secrets: [OPERATOR_SECRET], pollMs: 50, ...extra });
  server.on("request", async (req, res) => {
    if (!(await web.handle(req, res))) res.writeHead(404).end("not mine");
  });
  return {
    url,
    github,
    jobs,
    store,
    recorder,
    dataDir,
    web,
    async close() {
      web.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await github.close();
      await store.close();
    },
  };
}

/** A request that does not follow redirects (the sign-in flow is a chain of 302s). */
export const get = (url: string, cookie?: string) => fetch(url, { redirect: "manual", headers: cookie ? { cookie } : {} });
export const cookiesOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";")[0]!);

/** Signs in through the stand-in's OAuth flow; the session cookie. */
export async function signIn(f: Pick<WebFixture, "url">): Promise<string> {
  const login = await get(`${f.url}/auth/login?next=%2Fjobs`);
  const authorize = await get(login.headers.get("location")!);
  const callback = await get(authorize.headers.get("location")!, cookiesOf(login).join("; "));
  return cookiesOf(callback).filter((c) => c.startsWith("crewbot_session=")).join("; ");
}
