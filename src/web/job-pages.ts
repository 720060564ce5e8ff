/**
 * The job pages: `/jobs` (recent jobs of the repositories the visitor may read), `/jobs/<id>`
 * (one job's transcript, following it live while it runs) and `/jobs/<id>/artifacts/…` (its files).
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { JobRecord } from "../queue/types.js";
import { formatDuration } from "../report/format.js";
import { artifactFile, renderScratchList, scratchFiles, sendTextFile } from "./artifacts.js";
import { sessionOf, toLogin } from "./auth-routes.js";
import { esc } from "./html.js";
import { visibleJob } from "./job-access.js";
import { Timeline, type JobHead } from "./timeline.js";
import { HttpError, page, send, type WebContext } from "./web-context.js";

const LIST_LIMIT = 500;

export function headOf(ctx: WebContext, job: JobRecord): JobHead {
  const { clean } = ctx;
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
    url: `${ctx.github.oauthBase}/${repo}/${job.target.isPullRequest ? "pull" : "issues"}/${job.target.number}`,
    createdAt: job.createdAt,
    ...(job.startedAt !== undefined ? { startedAt: job.startedAt } : {}),
    ...(job.finishedAt !== undefined ? { finishedAt: job.finishedAt } : {}),
    ...(job.outcome !== undefined ? { outcome: clean(job.outcome) } : {}),
  };
}

export const artifactBaseOf = (jobId: string) => `/jobs/${encodeURIComponent(jobId)}/artifacts/`;

async function timelineOf(ctx: WebContext, job: JobRecord): Promise<Timeline> {
  const timeline = new Timeline(headOf(ctx, job), artifactBaseOf(job.id));
  for (const entry of await ctx.options.store.read(job.id)) timeline.apply(entry);
  return timeline;
}

/** A shared store that fails leaves the page with what this data dir has. */
async function fetchFiles(ctx: WebContext, id: string): Promise<void> {
  await ctx.options.jobFiles?.fetch(id).catch((err: Error) => ctx.options.log?.warn(`job ${id}: its files could not be read from the shared store: ${err.message}`));
}

export async function jobPage(ctx: WebContext, req: IncomingMessage, url: URL, res: ServerResponse, id: string): Promise<true> {
  const session = sessionOf(ctx, req);
  const job = await visibleJob(ctx, session, id);
  if (!job) return toLogin(url, res);
  const timeline = await timelineOf(ctx, job);
  const live = !timeline.ended;
  const nonce = randomBytes(16).toString("base64");
  const steps = timeline.renderSteps() || (live ? "" : `<p class="muted">No transcript was recorded for this job.</p>`);
  await fetchFiles(ctx, job.id);
  const body = `${timeline.renderHead()}
<div id="steps">${steps}</div>
${renderScratchList(await scratchFiles(ctx.options.dataDir, job.id), artifactBaseOf(job.id), ctx.clean)}
<p class="muted" id="live">${live ? "Live: this page follows the job." : ""}</p>`;
  const script = live ? liveScript(job.id, timeline.lastSeq) : undefined;
  send(res, 200, page(`${job.kind} ${job.target.owner}/${job.target.repo}#${job.target.number} · crewbot`, body, { user: session?.login, script, nonce }), nonce);
  return true;
}

export async function list(ctx: WebContext, req: IncomingMessage, url: URL, res: ServerResponse): Promise<true> {
  const session = sessionOf(ctx, req);
  if (!session) return toLogin(url, res);
  const wanted = url.searchParams.get("repo")?.toLowerCase() || undefined;
  const jobs = await ctx.options.queue.listRecent({ limit: LIST_LIMIT });
  const repos = new Map<string, { owner: string; repo: string }>();
  for (const job of jobs) repos.set(`${job.target.owner}/${job.target.repo}`.toLowerCase(), { owner: job.target.owner, repo: job.target.repo });
  const readable = new Set<string>();
  await Promise.all(
    [...repos].map(async ([key, r]) => {
      const ok = await ctx.github.canRead(session, session.token, r.owner, r.repo).then((a) => a.read, () => false);
      if (ok) readable.add(key);
    }),
  );
  const keyOf = (job: JobRecord) => `${job.target.owner}/${job.target.repo}`.toLowerCase();
  const shown = jobs.filter((job) => readable.has(keyOf(job)) && (!wanted || keyOf(job) === wanted));
  const options = [...readable].sort().map((key) => {
    const r = repos.get(key)!;
    const name = `${r.owner}/${r.repo}`;
    return `<option value="${esc(name)}"${key === wanted ? " selected" : ""}>${esc(name)}</option>`;
  });
  const body = `<h1 style="font-size:1.25em">Recent jobs</h1>
<form method="get" action="/jobs"><label>Repository <select name="repo"><option value="">all</option>${options.join("")}</select></label> <button type="submit">Filter</button></form>
<div style="overflow-x:auto"><table><thead><tr><th>State</th><th>Job</th><th>Repository</th><th class="hide-sm">Created (UTC)</th><th>Duration</th><th>Cost</th></tr></thead>
<tbody>${shown.map((job) => jobRow(ctx, job)).join("\n") || `<tr><td colspan="6" class="muted">No jobs you can see.</td></tr>`}</tbody></table></div>`;
  send(res, 200, page("Jobs · crewbot", body, { user: session.login }));
  return true;
}

function jobRow(ctx: WebContext, job: JobRecord): string {
  const repo = `${job.target.owner}/${job.target.repo}`;
  const end = job.finishedAt ?? (job.state === "running" ? ctx.now() : undefined);
  const duration = job.startedAt !== undefined && end !== undefined ? formatDuration(end - job.startedAt) : "—";
  const cost = /~?\$\d+(?:\.\d+)?/.exec(job.outcome ?? "")?.[0] ?? "—";
  const target = `${ctx.github.oauthBase}/${repo}/${job.target.isPullRequest ? "pull" : "issues"}/${job.target.number}`;
  return `<tr data-job="${esc(job.id)}"><td><span class="state state-${esc(job.state)}">${esc(job.state)}</span></td>
<td><a href="/jobs/${esc(encodeURIComponent(job.id))}">${esc(job.kind)}</a><div class="muted hide-sm">${esc(ctx.clean(job.outcome ?? ""))}</div></td>
<td>${esc(repo)} <a href="${esc(target)}">#${esc(job.target.number)}</a></td>
<td class="hide-sm">${esc(new Date(job.createdAt).toISOString().replace("T", " ").slice(0, 16))}</td><td>${esc(duration)}</td><td>${esc(cost)}</td></tr>`;
}

export async function artifact(ctx: WebContext, req: IncomingMessage, url: URL, res: ServerResponse, id: string, segments: string[]): Promise<true> {
  if (!(await visibleJob(ctx, sessionOf(ctx, req), id))) return toLogin(url, res);
  await fetchFiles(ctx, id);
  const file = await artifactFile(ctx.options.dataDir, id, segments);
  if (file === undefined) throw new HttpError(404, "Not found");
  await sendTextFile(req, res, file, ctx.clean);
  return true;
}

/** The live page's script: applies the event stream's ops to the page until the job ends. */
function liveScript(jobId: string, lastSeq: number): string {
  return `(function(){
if(!window.EventSource)return;
var es=new EventSource(${JSON.stringify(`/jobs/${encodeURIComponent(jobId)}/events?after=${lastSeq}`)});
function apply(op){if(op.op==="append"){var p=document.getElementById(op.parent);if(p)p.insertAdjacentHTML("beforeend",op.html);}else{var el=document.getElementById(op.id);if(el)el.outerHTML=op.html;}}
es.addEventListener("ops",function(e){JSON.parse(e.data).forEach(apply);});
es.addEventListener("end",function(){es.close();var l=document.getElementById("live");if(l)l.textContent="";document.body.setAttribute("data-ended","true");});
})();`;
}
