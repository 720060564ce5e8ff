/**
 * The insights pages: `/insights` (the repositories with figures that the visitor can read, their
 * last 30 days) and `/insights/<owner>/<repo>` (that repository's weeks, drawn). Who may see a
 * repository is the job pages' rule: GitHub lets them read it. For anyone else it does not exist:
 * left out of the list, 404 on its page, the same answer as a repository with no such name.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { InsightsSource } from "../insights/types.js";
import { sessionOf, toLogin } from "./auth-routes.js";
import { insightsList, PERIODS, repoInsights, type ListedRepo } from "./insights-html.js";
import { canRead } from "./job-access.js";
import type { Session } from "./session.js";
import { HttpError, page, send, type WebContext } from "./web-context.js";

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
const LIST_DAYS = 30;
const DEFAULT_WEEKS = 12;
/** Repositories asked of GitHub for one list, a few at a time (their figures too): what one page view may cost. */
const MAX_CHECKED = 100;
const CHECKS_AT_ONCE = 8;
/** GitHub's own limits on names: anything else is no repository of theirs. */
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const REPO = /^[A-Za-z0-9._-]{1,100}$/;

/** `/insights…` after the prefix, its parts decoded: the list, a repository, or 404. */
export async function insights(ctx: WebContext, req: IncomingMessage, url: URL, res: ServerResponse, parts: string[]): Promise<true> {
  const source = ctx.options.insights;
  if (!source) throw new HttpError(404, "Insights are not kept by this server.");
  const session = sessionOf(ctx, req);
  if (!session) return toLogin(url, res);
  if (parts.length === 0 || (parts.length === 1 && parts[0] === "")) return await list(ctx, source, session, res);
  const [owner, repo, ...rest] = parts;
  if (rest.length > 0 || !owner || !repo || !OWNER.test(owner) || !REPO.test(repo)) throw new HttpError(404, "Not found");
  return await repository(ctx, source, session, url, res, `${owner}/${repo}`);
}

async function list(ctx: WebContext, source: InsightsSource, session: Session, res: ServerResponse): Promise<true> {
  const now = ctx.now();
  const from = now - LIST_DAYS * DAY_MS;
  const found = await readableOf(ctx, session, await source.repositories(from));
  const rows: ListedRepo[] = await eachLimited(found.readable, CHECKS_AT_ONCE, async (name) => ({ name, figures: await source.figures(name, from, now) }));
  send(res, 200, page("Insights · crewbot", insightsList(rows, LIST_DAYS, found), { user: session.login }));
  return true;
}

async function repository(ctx: WebContext, source: InsightsSource, session: Session, url: URL, res: ServerResponse, name: string): Promise<true> {
  const [owner, repo] = name.split("/") as [string, string];
  if (!(await canRead(ctx, session, owner, repo))) throw new HttpError(404, "Not found");
  const period = periodOf(url.searchParams.get("weeks"));
  const to = ctx.now();
  const from = mondayOf(to) - (period - 1) * WEEK_MS;
  const [total, weeks] = await Promise.all([source.figures(name, from, to), source.weeks(name, from, to)]);
  send(res, 200, page(`Insights · ${name} · crewbot`, repoInsights(name, period, total, weeks), { user: session.login }));
  return true;
}

/** `?weeks=` when it is one of the periods offered, else the default. */
function periodOf(asked: string | null): number {
  const n = Number(asked);
  return (PERIODS as readonly number[]).includes(n) ? n : DEFAULT_WEEKS;
}

/** 00:00 UTC of the Monday of the week holding `ms`. */
export function mondayOf(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
}

interface Readable {
  readable: string[];
  /** GitHub failed to answer for some: they are left out, and the page says so. */
  unanswered: boolean;
  /** Set when there were more than MAX_CHECKED names. */
  checked?: number;
}

/**
 * The repositories this person can read: those GitHub lists for them through the app's
 * installations, and of the rest (a public repository, say) each asked of GitHub by name (answers
 * remembered by GitHubWeb) — at most MAX_CHECKED of them. A name that GitHub could not have, or an answer
 * GitHub did not give, leaves the repository out, with a log line.
 */
async function readableOf(ctx: WebContext, session: Session, names: string[]): Promise<Readable> {
  const byKey = new Map<string, string>();
  for (const name of names) {
    const [owner, repo, ...rest] = name.split("/");
    if (rest.length === 0 && owner && repo && OWNER.test(owner) && REPO.test(repo)) byKey.set(name.toLowerCase(), name);
    else ctx.options.log?.warn(`insights: the figures name a repository GitHub could not have (${JSON.stringify(ctx.clean(name).slice(0, 200))}); left out of the list`);
  }
  const sorted = [...byKey.values()].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  // Those GitHub lists for the user through the app's installations need no question each.
  const known = await ctx.github.installationRepositories(session, session.token).catch((err: Error) => {
    ctx.options.log?.warn(`insights: GitHub did not list ${session.login}'s installation repositories (${ctx.clean(err.message)}); each repository is asked instead`);
    return new Set<string>();
  });
  const theirs = sorted.filter((name) => known.has(name.toLowerCase()));
  const others = sorted.filter((name) => !known.has(name.toLowerCase()));
  const asked = others.slice(0, MAX_CHECKED);
  const can = await eachLimited(asked, CHECKS_AT_ONCE, async (name) => {
    const [owner, repo] = name.split("/") as [string, string];
    return await ctx.github.canRead(session, session.token, owner, repo).then(
      (a) => a.read,
      (err: Error) => {
        ctx.options.log?.warn(`insights: GitHub did not say whether ${session.login} can read ${name}: ${ctx.clean(err.message)}`);
        return "unanswered" as const;
      },
    );
  });
  const readable = [...theirs, ...asked.filter((_, i) => can[i] === true)].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  return { readable, unanswered: can.includes("unanswered"), ...(others.length > MAX_CHECKED ? { checked: MAX_CHECKED } : {}) };
}

async function eachLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}
