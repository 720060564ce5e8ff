/**
 * The transcript pages on the app's own server (Probot's `addHandler`), plain node:http:
 * `/jobs`, `/jobs/<id>`, `/jobs/<id>/events` (server-sent events), `/jobs/<id>/artifacts/<name>`
 * and `/jobs/<id>/artifacts/local/<path>` (the scratch space),
 * and the GitHub sign-in `/auth/login`, `/auth/callback`, `/auth/logout`. A visitor without a
 * session is sent to sign in; a job is shown only to someone GitHub lets read its repository —
 * anyone else gets 404.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { JobQueue } from "../queue/job-queue.js";
import type { JobRecord } from "../queue/types.js";
import { formatDuration } from "../report/format.js";
import { redact } from "../secrets/redact.js";
import type { TranscriptStore } from "../transcripts/types.js";
import { artifactFile, renderScratchList, SCRATCH_FOLDER, scratchFiles, sendTextFile } from "./artifacts.js";
import { GitHubWeb } from "./github.js";
import { esc, layout } from "./html.js";
import {
  CookieSigner,
  parseCookies,
  safeNext,
  sameString,
  SESSION_COOKIE,
  SESSION_MAX_AGE_S,
  sessionSecret,
  setCookie,
  STATE_COOKIE,
  STATE_MAX_AGE_S,
  type Session,
} from "./session.js";
import { Timeline, type JobHead } from "./timeline.js";

export interface WebOptions {
  env: NodeJS.ProcessEnv;
  /** `CREWBOT_PUBLIC_URL`: the OAuth `redirect_uri` is `<publicUrl>/auth/callback`. */
  publicUrl: string;
  queue: Pick<JobQueue, "get" | "listRecent">;
  store: TranscriptStore;
  dataDir: string;
  /** The operator's secrets: redacted from everything shown. */
  secrets: string[];
  /** With Redis: brings a job's files (written by whichever worker) into `dataDir` before they are listed or served. */
  jobFiles?: { fetch(jobId: string): Promise<unknown> };
  log?: { warn(message: string): void };
  github?: GitHubWeb;
  /** How often a live page's stream looks for new entries (ms). */
  pollMs?: number;
  now?: () => number;
}

export interface WebHandler {
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Ends the live streams (server shutdown). */
  close(): void;
}

const JOB_ID = /^[A-Za-z0-9._-]{1,100}$/;
const LIST_LIMIT = 500;
const ENDED = new Set(["succeeded", "failed", "cancelled"]);

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function createWebHandler(options: WebOptions): WebHandler {
  const now = options.now ?? Date.now;
  const github = options.github ?? new GitHubWeb({ env: options.env });
  const signer = new CookieSigner(sessionSecret(options.env), now);
  const publicUrl = options.publicUrl.replace(/\/+$/, "");
  const secure = publicUrl.startsWith("https:");
  const redirectUri = `${publicUrl}/auth/callback`;
  const pollMs = options.pollMs ?? 500;
  const streams = new Set<ServerResponse>();
  const clean = (text: string | undefined) => redact(text ?? "", options.secrets);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const route = url.pathname;
    if (!(route === "/jobs" || route.startsWith("/jobs/") || route.startsWith("/auth/"))) return false;
    if (req.method !== "GET" && req.method !== "HEAD" && !(req.method === "POST" && route === "/auth/logout")) {
      send(res, 405, page("Not allowed", "<p>Method not allowed.</p>"));
      return true;
    }
    try {
      if (route === "/auth/login") return login(url, res);
      if (route === "/auth/callback") return await callback(req, url, res);
      if (route === "/auth/logout") return logout(res);
      const parts = route.split("/").slice(2).map(decodeSafe);
      if (parts.length === 0 || (parts.length === 1 && parts[0] === "")) return await list(req, url, res);
      const [id, sub, name, ...rest] = parts;
      if (!id || !JOB_ID.test(id) || (rest.length > 0 && !(sub === "artifacts" && name === SCRATCH_FOLDER))) throw new HttpError(404, "Not found");
      if (sub === undefined) return await jobPage(req, url, res, id);
      if (sub === "events" && name === undefined) return await events(req, url, res, id);
      if (sub === "artifacts" && name !== undefined) return await artifact(req, url, res, id, [name, ...rest]);
      throw new HttpError(404, "Not found");
    } catch (err) {
      if (res.headersSent) {
        res.end();
        return true;
      }
      const status = err instanceof HttpError ? err.status : 500;
      if (!(err instanceof HttpError)) options.log?.warn(`transcript page ${route}: ${(err as Error).message}`);
      const message = err instanceof HttpError ? err.message : "Something went wrong.";
      send(res, status, page(status === 404 ? "Not found" : "Error", `<h1>${esc(status)}</h1><p>${esc(message)}</p>`));
      return true;
    }
  }

  // ---- sign-in ----

  function sessionOf(req: IncomingMessage): Session | undefined {
    return signer.openSession(parseCookies(req.headers.cookie)[SESSION_COOKIE]);
  }

  function toLogin(url: URL, res: ServerResponse): true {
    res.writeHead(302, { location: `/auth/login?next=${encodeURIComponent(url.pathname + url.search)}`, "cache-control": "no-store" });
    res.end();
    return true;
  }

  function login(url: URL, res: ServerResponse): true {
    if (!github.configured) throw new HttpError(503, "Sign-in with GitHub is not configured (GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET).");
    const state = randomBytes(24).toString("base64url");
    const cookie = signer.sign({ s: state, n: safeNext(url.searchParams.get("next")), e: now() + STATE_MAX_AGE_S * 1000 });
    res.writeHead(302, {
      location: github.authorizeUrl(state, redirectUri),
      "set-cookie": setCookie(STATE_COOKIE, cookie, { maxAge: STATE_MAX_AGE_S, secure }),
      "cache-control": "no-store",
    });
    res.end();
    return true;
  }

  async function callback(req: IncomingMessage, url: URL, res: ServerResponse): Promise<true> {
    const saved = signer.verify<{ s?: unknown; n?: unknown; e?: unknown }>(parseCookies(req.headers.cookie)[STATE_COOKIE]);
    const state = url.searchParams.get("state") ?? "";
    const code = url.searchParams.get("code") ?? "";
    if (!saved || typeof saved.s !== "string" || typeof saved.e !== "number" || saved.e <= now() || !state || !sameString(saved.s, state)) {
      throw new HttpError(400, "The sign-in could not be verified (state mismatch or expired). Please try again.");
    }
    if (!code) throw new HttpError(400, "GitHub sent no authorization code.");
    let token: string;
    let user: { login: string; id: number };
    try {
      token = await github.exchange(code, redirectUri);
      user = await github.user(token);
    } catch (err) {
      throw new HttpError(502, clean((err as Error).message));
    }
    const session: Session = { login: user.login, id: user.id, token, exp: Math.floor(now() / 1000) + SESSION_MAX_AGE_S };
    res.writeHead(302, {
      location: safeNext(typeof saved.n === "string" ? saved.n : undefined),
      "set-cookie": [
        setCookie(SESSION_COOKIE, signer.sealSession(session), { maxAge: SESSION_MAX_AGE_S, secure }),
        setCookie(STATE_COOKIE, "", { maxAge: 0, secure }),
      ],
      "cache-control": "no-store",
    });
    res.end();
    return true;
  }

  function logout(res: ServerResponse): true {
    res.setHeader("set-cookie", setCookie(SESSION_COOKIE, "", { maxAge: 0, secure }));
    send(res, 200, page("Signed out", `<p>Signed out. <a href="/auth/login?next=%2Fjobs">Sign in again</a></p>`));
    return true;
  }

  // ---- access ----

  /** The job, when this session may read its repository; 404 otherwise (also for no such job). */
  async function readableJob(session: Session, id: string): Promise<JobRecord> {
    const job = await options.queue.get(id);
    if (!job || !(await canRead(session, job.target.owner, job.target.repo))) throw new HttpError(404, "Not found");
    return job;
  }

  /**
   * A job anyone may see without signing in: its repository was public when the job ran, its
   * config said `transcripts.public`, and GitHub still shows the repository to anyone now.
   */
  async function publicJob(id: string): Promise<JobRecord | undefined> {
    const job = await options.queue.get(id);
    if (!job || job.repo.private) return undefined;
    const entries = await options.store.read(job.id);
    if (!entries.some((e) => e.type === "visibility" && e.public)) return undefined;
    const open = await github.isPublic(job.target.owner, job.target.repo).catch(() => false);
    return open ? job : undefined;
  }

  async function canRead(session: Session, owner: string, repo: string): Promise<boolean> {
    try {
      return (await github.canRead(session, session.token, owner, repo)).read;
    } catch (err) {
      throw new HttpError(502, `Could not ask GitHub who may read ${owner}/${repo}: ${clean((err as Error).message)}`);
    }
  }

  // ---- pages ----

  function page(title: string, body: string, extra: { user?: string; script?: string; nonce?: string } = {}): string {
    return layout({ title, body, ...extra });
  }

  function headOf(job: JobRecord): JobHead {
    const repo = `${job.target.owner}/${job.target.repo}`;
    return {
      id: job.id,
      state: job.state,
      kind: job.kind,
      repo,
      number: job.target.number,
      isPullRequest: job.target.isPullRequest,
      sender: clean(job.trigger.sender),
      request: clean(job.trigger.request),
      ...(job.subject ? { title: clean(job.subject.title) } : {}),
      url: `${github.oauthBase}/${repo}/${job.target.isPullRequest ? "pull" : "issues"}/${job.target.number}`,
      createdAt: job.createdAt,
      ...(job.startedAt !== undefined ? { startedAt: job.startedAt } : {}),
      ...(job.finishedAt !== undefined ? { finishedAt: job.finishedAt } : {}),
      ...(job.outcome !== undefined ? { outcome: clean(job.outcome) } : {}),
    };
  }

  async function timelineOf(job: JobRecord): Promise<Timeline> {
    const timeline = new Timeline(headOf(job), `/jobs/${encodeURIComponent(job.id)}/artifacts/`);
    for (const entry of await options.store.read(job.id)) timeline.apply(entry);
    return timeline;
  }

  async function jobPage(req: IncomingMessage, url: URL, res: ServerResponse, id: string): Promise<true> {
    const session = sessionOf(req);
    const job = session ? await readableJob(session, id) : await publicJob(id);
    if (!job) return toLogin(url, res);
    const timeline = await timelineOf(job);
    const live = !timeline.ended;
    const nonce = randomBytes(16).toString("base64");
    const steps = timeline.renderSteps() || (live ? "" : `<p class="muted">No transcript was recorded for this job.</p>`);
    await fetchFiles(job.id);
    const body = `${timeline.renderHead()}
<div id="steps">${steps}</div>
${renderScratchList(await scratchFiles(options.dataDir, job.id), `/jobs/${encodeURIComponent(job.id)}/artifacts/`, clean)}
<p class="muted" id="live">${live ? "Live: this page follows the job." : ""}</p>`;
    const script = live ? liveScript(job.id, timeline.lastSeq) : undefined;
    send(res, 200, page(`${job.kind} ${job.target.owner}/${job.target.repo}#${job.target.number} · crewbot`, body, { user: session?.login, script, nonce }), nonce);
    return true;
  }

  async function list(req: IncomingMessage, url: URL, res: ServerResponse): Promise<true> {
    const session = sessionOf(req);
    if (!session) return toLogin(url, res);
    const wanted = url.searchParams.get("repo")?.toLowerCase() || undefined;
    const jobs = await options.queue.listRecent({ limit: LIST_LIMIT });
    const repos = new Map<string, { owner: string; repo: string }>();
    for (const job of jobs) repos.set(`${job.target.owner}/${job.target.repo}`.toLowerCase(), { owner: job.target.owner, repo: job.target.repo });
    const readable = new Set<string>();
    await Promise.all(
      [...repos].map(async ([key, r]) => {
        const ok = await github.canRead(session, session.token, r.owner, r.repo).then((a) => a.read, () => false);
        if (ok) readable.add(key);
      }),
    );
    const keyOf = (job: JobRecord) => `${job.target.owner}/${job.target.repo}`.toLowerCase();
    const shown = jobs.filter((job) => readable.has(keyOf(job)) && (!wanted || keyOf(job) === wanted));
    const options_ = [...readable].sort().map((key) => {
      const r = repos.get(key)!;
      const name = `${r.owner}/${r.repo}`;
      return `<option value="${esc(name)}"${key === wanted ? " selected" : ""}>${esc(name)}</option>`;
    });
    const rows = shown.map((job) => {
      const repo = `${job.target.owner}/${job.target.repo}`;
      const end = job.finishedAt ?? (job.state === "running" ? now() : undefined);
      const duration = job.startedAt !== undefined && end !== undefined ? formatDuration(end - job.startedAt) : "—";
      const cost = /~?\$\d+(?:\.\d+)?/.exec(job.outcome ?? "")?.[0] ?? "—";
      const target = `${github.oauthBase}/${repo}/${job.target.isPullRequest ? "pull" : "issues"}/${job.target.number}`;
      return `<tr data-job="${esc(job.id)}"><td><span class="state state-${esc(job.state)}">${esc(job.state)}</span></td>
<td><a href="/jobs/${esc(encodeURIComponent(job.id))}">${esc(job.kind)}</a><div class="muted hide-sm">${esc(clean(job.outcome ?? ""))}</div></td>
<td>${esc(repo)} <a href="${esc(target)}">#${esc(job.target.number)}</a></td>
<td class="hide-sm">${esc(new Date(job.createdAt).toISOString().replace("T", " ").slice(0, 16))}</td><td>${esc(duration)}</td><td>${esc(cost)}</td></tr>`;
    });
    const body = `<h1 style="font-size:1.25em">Recent jobs</h1>
<form method="get" action="/jobs"><label>Repository <select name="repo"><option value="">all</option>${options_.join("")}</select></label> <button type="submit">Filter</button></form>
<div style="overflow-x:auto"><table><thead><tr><th>State</th><th>Job</th><th>Repository</th><th class="hide-sm">Created (UTC)</th><th>Duration</th><th>Cost</th></tr></thead>
<tbody>${rows.join("\n") || `<tr><td colspan="6" class="muted">No jobs you can see.</td></tr>`}</tbody></table></div>`;
    send(res, 200, page("Jobs · crewbot", body, { user: session.login }));
    return true;
  }

  /** A shared store that fails leaves the page with what this data dir has. */
  async function fetchFiles(id: string): Promise<void> {
    await options.jobFiles?.fetch(id).catch((err: Error) => options.log?.warn(`job ${id}: its files could not be read from the shared store: ${err.message}`));
  }

  async function artifact(req: IncomingMessage, url: URL, res: ServerResponse, id: string, segments: string[]): Promise<true> {
    const session = sessionOf(req);
    if (!(session ? await readableJob(session, id) : await publicJob(id))) return toLogin(url, res);
    await fetchFiles(id);
    const file = await artifactFile(options.dataDir, id, segments);
    if (file === undefined) throw new HttpError(404, "Not found");
    await sendTextFile(req, res, file, clean);
    return true;
  }

  // ---- live updates ----

  async function events(req: IncomingMessage, url: URL, res: ServerResponse, id: string): Promise<true> {
    const session = sessionOf(req);
    const visible = session ? await readableJob(session, id) : await publicJob(id);
    if (!visible) throw new HttpError(401, "Sign in first.");
    let job = visible;
    const after = Math.max(Number(url.searchParams.get("after")) || 0, Number(req.headers["last-event-id"]) || 0);
    const timeline = new Timeline(headOf(job), `/jobs/${encodeURIComponent(job.id)}/artifacts/`);
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    res.write("retry: 2000\n\n");
    streams.add(res);
    let closed = false;
    const finish = () => {
      if (closed) return;
      closed = true;
      streams.delete(res);
      res.end();
    };
    res.on("close", () => {
      closed = true;
      streams.delete(res);
    });
    const sendEnd = () => {
      res.write(`event: end\ndata: {}\n\n`);
      finish();
    };
    let cursor = 0;
    let lastBeat = now();
    while (!closed) {
      const entries = await options.store.read(id, cursor);
      for (const entry of entries) {
        cursor = Math.max(cursor, entry.seq);
        const ops = timeline.apply(entry);
        if (entry.seq > after && ops.length > 0) res.write(`id: ${entry.seq}\nevent: ops\ndata: ${JSON.stringify(ops)}\n\n`);
      }
      if (timeline.end) return sendEnd(), true;
      if (ENDED.has(job.state) && entries.length === 0) {
        // Ended without a transcript end (it died, or never started): show the queue's word.
        res.write(`event: ops\ndata: ${JSON.stringify([timeline.headOp()])}\n\n`);
        return sendEnd(), true;
      }
      if (now() - lastBeat > 15_000) {
        res.write(": keep-alive\n\n");
        lastBeat = now();
      }
      await sleep(pollMs);
      if (closed) break;
      const fresh = await options.queue.get(id);
      if (fresh) {
        job = fresh;
        timeline.setHead(headOf(job));
      }
    }
    return true;
  }

  function liveScript(jobId: string, lastSeq: number): string {
    return `(function(){
if(!window.EventSource)return;
var es=new EventSource(${JSON.stringify(`/jobs/${encodeURIComponent(jobId)}/events?after=${lastSeq}`)});
function apply(op){if(op.op==="append"){var p=document.getElementById(op.parent);if(p)p.insertAdjacentHTML("beforeend",op.html);}else{var el=document.getElementById(op.id);if(el)el.outerHTML=op.html;}}
es.addEventListener("ops",function(e){JSON.parse(e.data).forEach(apply);});
es.addEventListener("end",function(){es.close();var l=document.getElementById("live");if(l)l.textContent="";document.body.setAttribute("data-ended","true");});
})();`;
  }

  return {
    handle,
    close() {
      for (const res of streams) res.end();
      streams.clear();
    },
  };
}

function send(res: ServerResponse, status: number, html: string, nonce?: string): void {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "private, no-store",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
    "content-security-policy": `default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'${nonce ? `; script-src 'nonce-${nonce}'` : ""}`,
  });
  res.end(html);
}

function decodeSafe(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return "\0";
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
