/**
 * The one place crewbot writes to GitHub (DESIGN.md §6): writes are serialised and spaced, rate
 * limits are waited out, every string crewbot wrote is redacted, and its comment bodies fit
 * GitHub's limit. Text people wrote (`PeoplesText`, a repository path) goes byte for byte.
 */
import { COMMENT_LIMIT, cutMiddle, GITHUB_BODY_LIMIT } from "../text/github-markdown.js";
import { PeoplesText, PeoplesTextRefused } from "../secrets/peoples-text.js";
import { redact } from "../secrets/redact.js";

import { DEFAULT_WRITE_SPACING_MS, realClock, WriteGate, type Clock } from "./write-gate.js";

export { DEFAULT_WRITE_BUDGET, DEFAULT_WRITE_SPACING_MS, realClock, WriteGate, WriteSuperseded, type Clock, type WriteBudget } from "./write-gate.js";

/** Pino (Probot's `log`) fits this; messages are plain strings. */
export interface ReportLog {
  warn(message: string): void;
  error(message: string): void;
}

export const silentLog: ReportLog = { warn: () => {}, error: () => {} };

export interface GitHubResponse<T = unknown> {
  status: number;
  headers: Record<string, unknown>;
  data: T;
}

/** What the writer needs of an installation Octokit (`ProbotOctokit` fits). */
export interface OctokitLike {
  request(route: string, params?: Record<string, unknown>): Promise<GitHubResponse<any>>;
  /** GitHub's GraphQL endpoint (`/graphql`, `/api/graphql` on Enterprise Server), for the mutations REST lacks. */
  graphql?: <T = unknown>(query: string, variables?: Record<string, unknown>) => Promise<T>;
}

export interface GitHubWriterOptions {
  octokit: OctokitLike;
  /** Literal secrets to redact besides known token shapes: the installation token, app secrets. */
  secrets?: Iterable<string | undefined>;
  /** Default 1000: GitHub asks apps to space writes about a second apart. */
  minSpacingMs?: number;
  /** Retries after a rate limit, per write. Default 3. */
  maxRetries?: number;
  /** A rate limit that asks for a longer wait fails at once instead. Default 15 minutes. */
  maxWaitMs?: number;
  clock?: Clock;
  gate?: WriteGate;
  log?: ReportLog;
  /**
   * Called when a write is answered 401 (the installation token expired or was revoked): it gets
   * the Octokit a new token; the write is then sent once more.
   */
  refreshAuth?: () => Promise<void>;
}

/** How a write is queued: a progress edit yields to every other write, and a newer one of the same comment replaces it. */
export interface WriteOptions {
  progress?: boolean;
  /** Budgeted apart from the jobs' writes (a reply to someone who started nothing): spaced, but takes none of their tokens. */
  apart?: boolean;
}

/** Parameters Octokit reads itself; never redacted or cut. */
const OCTOKIT_KEYS = new Set(["headers", "mediaType", "request", "baseUrl", "url", "method"]);

/** Fields that name a file of the repository (a review comment's, an annotation's, a tree entry's): people's text, whatever the caller passes. */
const REPOSITORY_PATH_KEYS = new Set(["path"]);

interface HttpErrorLike {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, unknown>; data?: unknown };
}

const header = (err: HttpErrorLike, name: string): string | undefined => {
  const value = err.response?.headers?.[name];
  return value === undefined || value === null ? undefined : String(value);
};

/**
 * How long to wait before retrying, or null when the error is not a rate limit. GitHub's rules:
 * `retry-after` seconds; else, when no requests remain, until `x-ratelimit-reset`; else at least
 * a minute, growing with each retry.
 */
export function rateLimitWaitMs(err: unknown, now: number, attempt = 0): number | null {
  const e = (err ?? {}) as HttpErrorLike;
  const data = e.response?.data as { message?: unknown } | undefined;
  const text = `${e.message ?? ""} ${typeof data?.message === "string" ? data.message : ""}`;
  const exhausted = header(e, "x-ratelimit-remaining") === "0";
  // GraphQL answers a rate limit with 200 and an error of type RATE_LIMITED.
  if ((e as { errors?: Array<{ type?: string }> }).errors?.some((x) => x.type === "RATE_LIMITED")) return 60_000 * 2 ** attempt;
  const limited =
    e.status === 429 ||
    (e.status === 403 && (/secondary rate limit|abuse detection/i.test(text) || exhausted || header(e, "retry-after") !== undefined));
  if (!limited) return null;
  const retryAfter = Number(header(e, "retry-after"));
  if (header(e, "retry-after") !== undefined && Number.isFinite(retryAfter) && retryAfter >= 0) return retryAfter * 1000;
  const reset = Number(header(e, "x-ratelimit-reset"));
  if (exhausted && Number.isFinite(reset) && reset > 0) return Math.max(1000, reset * 1000 - now);
  return 60_000 * 2 ** attempt;
}

export const httpStatus = (err: unknown): number | undefined => (err as HttpErrorLike | undefined)?.status;

/** The comment (or other thing) a write changes, so a newer write of it can replace a queued progress edit. */
function writeKey(route: string, params: Record<string, unknown>): string | undefined {
  if (params.comment_id === undefined) return undefined;
  return `${route.split(" ").pop()}#${String(params.owner)}/${String(params.repo)}#${String(params.comment_id)}`;
}

/** A second 401 after a new token: the token is not the problem we can fix; say what is. */
function tokenRefused(route: string, err: unknown): Error {
  const failure = new Error(
    `GitHub refused the installation token on ${route} (401) even after getting a new one: the installation token expired or was revoked (is the app still installed, and its private key valid?)`,
    { cause: err },
  ) as Error & { status: number };
  failure.status = 401;
  return failure;
}

export class GitHubWriter {
  /** Write requests sent (retries included), for benches. */
  writes = 0;
  /** Writes retried after a rate limit. */
  retries = 0;
  private readonly octokit: OctokitLike;
  private readonly secrets: string[];
  private readonly gate: WriteGate;
  /** The clock its waits run on (its gate's): what else writes through it waits on the same time. */
  readonly clock: Clock;
  private readonly maxRetries: number;
  private readonly maxWaitMs: number;
  private readonly log: ReportLog;
  private readonly refreshAuth: (() => Promise<void>) | undefined;

  constructor(options: GitHubWriterOptions) {
    this.octokit = options.octokit;
    this.secrets = [...(options.secrets ?? [])].filter((s): s is string => Boolean(s));
    this.clock = options.gate?.clock ?? options.clock ?? realClock;
    this.gate = options.gate ?? new WriteGate(options.minSpacingMs ?? DEFAULT_WRITE_SPACING_MS, this.clock);
    this.maxRetries = options.maxRetries ?? 3;
    this.maxWaitMs = options.maxWaitMs ?? 15 * 60_000;
    this.log = options.log ?? silentLog;
    this.refreshAuth = options.refreshAuth;
  }

  /** The installation's gate (its budget is shared by every writer of the installation). */
  get writeGate(): WriteGate {
    return this.gate;
  }

  /** A secret learnt later (a refreshed installation token). */
  addSecret(secret: string | undefined): void {
    if (secret) this.secrets.push(secret);
  }

  /** Reads go straight to GitHub: only writes are spaced. */
  read<T = unknown>(route: string, params: Record<string, unknown> = {}): Promise<GitHubResponse<T>> {
    return this.octokit.request(route, params);
  }

  /**
   * Sends one write (`POST /repos/{owner}/{repo}/issues/{issue_number}/comments`, …) in turn.
   * Rate limits are waited out and retried; a 401 gets a new token (`refreshAuth`) and one more
   * try; any other error (a 422 too) is thrown unchanged. A progress edit (`progress`) waits behind
   * every other write, and one still queued when a newer write of the same comment comes is
   * dropped: it rejects with `WriteSuperseded`. `body` may be a function, called when the write is sent.
   */
  write<T = unknown>(route: string, params: Record<string, unknown> = {}, options: WriteOptions = {}): Promise<GitHubResponse<T>> {
    // Prepared synchronously so the order of write() calls is the order GitHub sees. A body given
    // as a function is rendered when the write is sent, so a progress edit that waited shows the newest state.
    const lazy = typeof params.body === "function" ? (params.body as () => string) : undefined;
    let prepared: Record<string, unknown> | undefined;
    try {
      prepared = lazy ? undefined : this.prepare(route, params);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.gate.run(() => this.send<T>(route, prepared ?? this.prepare(route, { ...params, body: lazy!() })), {
      progress: options.progress,
      apart: options.apart,
      key: writeKey(route, params),
    });
  }

  /**
   * A GraphQL mutation (`resolveReviewThread`), queued, spaced, counted and retried like any write;
   * its variables are redacted. GraphQL errors (200 with `errors`) reject with Octokit's error.
   */
  mutate<T = unknown>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const graphql = this.octokit.graphql;
    if (!graphql) return Promise.reject(new Error("this Octokit has no GraphQL client"));
    let cleaned: Record<string, unknown>;
    try {
      cleaned = this.clean(variables) as Record<string, unknown>;
    } catch (error) {
      return Promise.reject(error);
    }
    return this.gate.run(() => this.attempts("POST /graphql", () => graphql.call(this.octokit, query, cleaned) as Promise<T>));
  }

  /**
   * Edits a pull request's description without losing someone else's edit: `edit` makes the new
   * body from the one read (undefined: nothing to write). The body read is people's text: every
   * line of it the new body keeps is sent byte for byte, only the lines `edit` added are crewbot's
   * (redacted), nothing is cut, and a body over GitHub's limit is refused (PeoplesTextRefused).
   * When the write's turn comes the body is read again, right before the PATCH; when it changed
   * meanwhile, `edit` runs on the newer one. GitHub has no conditional PATCH for pulls (no ETag
   * precondition), so this re-read is the check; after `tries` changed reads it gives up rather than overwrite.
   */
  async editPullBody(
    pr: { owner: string; repo: string; pull_number: number },
    edit: (body: string) => string | undefined,
    tries = 3,
  ): Promise<{ written: boolean; body: string; rereads: number }> {
    const get = "GET /repos/{owner}/{repo}/pulls/{pull_number}";
    const patch = "PATCH /repos/{owner}/{repo}/pulls/{pull_number}";
    const readBody = async () => ((await this.octokit.request(get, pr)).data as { body: string | null }).body ?? "";
    let body = await readBody();
    for (let rereads = 0; rereads < tries; rereads += 1) {
      const next = edit(body);
      const prepared = next === undefined ? undefined : this.prepare(patch, { ...pr, body: PeoplesText.edited(next, body) });
      if (prepared === undefined || prepared.body === body) return { written: false, body, rereads };
      const read = body;
      const changed = await this.gate.run(() =>
        this.attempts(patch, async () => {
          const now = await readBody();
          // Not sent: the read is not a write, and the edit is made again on what is there now.
          if (now !== read) return ((this.writes -= 1), now);
          await this.octokit.request(patch, prepared);
          return undefined;
        }),
      );
      if (changed === undefined) return { written: true, body: prepared.body as string, rereads };
      body = changed;
    }
    throw new Error(`the description of pull request #${pr.pull_number} changed on each of ${tries} reads; not written, so as not to lose an edit`);
  }

  /** `text` redacted as the writer redacts what crewbot writes (for a hash taken of what is sent). */
  redacted(text: string): string {
    return redact(text, this.secrets);
  }

  private send<T>(route: string, prepared: Record<string, unknown>): Promise<GitHubResponse<T>> {
    return this.attempts(route, () => this.octokit.request(route, prepared));
  }

  private async attempts<R>(route: string, call: () => Promise<R>): Promise<R> {
    let refreshed = false;
    for (let attempt = 0; ; ) {
      await this.gate.turn();
      this.writes += 1;
      try {
        return await call();
      } catch (err) {
        if (httpStatus(err) === 401 && this.refreshAuth) {
          if (refreshed) throw tokenRefused(route, err);
          refreshed = true;
          this.log.warn(`GitHub answered 401 on ${route}: getting a new installation token and trying once more`);
          await this.refreshAuth();
          continue;
        }
        const wait = rateLimitWaitMs(err, this.clock.now(), attempt);
        if (wait === null || attempt >= this.maxRetries || wait > this.maxWaitMs) throw err;
        this.retries += 1;
        this.log.warn(
          `GitHub rate limit (${httpStatus(err)}) on ${route}; retrying in ${Math.ceil(wait / 1000)} s (retry ${attempt + 1} of ${this.maxRetries})`,
        );
        await this.clock.sleep(wait);
        attempt += 1;
      }
    }
  }

  private prepare(route: string, params: Record<string, unknown>): Record<string, unknown> {
    const urlKeys = new Set([...route.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!));
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(params)) {
      out[key] = urlKeys.has(key) || OCTOKIT_KEYS.has(key) ? value : this.clean(value, key);
    }
    if (params.body instanceof PeoplesText) {
      const length = (out.body as string).length;
      if (length > GITHUB_BODY_LIMIT) {
        throw new PeoplesTextRefused(
          `not written: the body of ${route} would be ${length.toLocaleString("en-US")} characters, over GitHub's ${GITHUB_BODY_LIMIT.toLocaleString("en-US")}, and crewbot never cuts text people wrote`,
        );
      }
    } else if (typeof out.body === "string") {
      out.body = fitBody(out.body);
    }
    return out;
  }

  /** crewbot's strings redacted; people's text (`PeoplesText`, a repository path) as it is, checked for crewbot's secrets. */
  private clean(value: unknown, key?: string): unknown {
    if (value instanceof PeoplesText) return value.sendable(this.secrets, key ? `the ${key} sent` : "a text sent");
    if (typeof value === "string") return key && REPOSITORY_PATH_KEYS.has(key) ? PeoplesText.of(value).sendable(this.secrets, `the ${key} sent`) : redact(value, this.secrets);
    if (Array.isArray(value)) return value.map((v) => this.clean(v, key));
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.clean(v, k)]));
    }
    return value;
  }
}

const MARKERS = /<!-- crewbot:[^\n>]{1,200}? -->/g;

/**
 * A last resort for bodies the renderer did not already fit (replies, reviews, PR bodies): cut
 * from the middle, keeping the first lines (status) and the last (an approval box); a crewbot
 * marker that was in the cut part is put back next to the note.
 */
export function fitBody(body: string, max = COMMENT_LIMIT): string {
  if (body.length <= max) return body;
  const markers = [...new Set(body.match(MARKERS) ?? [])];
  const reserve = markers.reduce((sum, m) => sum + m.length + 1, 0);
  let noteLine = "";
  const note = (cut: number) => (noteLine = `_… ${cut.toLocaleString("en-US")} characters cut to fit GitHub's comment size limit …_`);
  const out = cutMiddle(body, max - reserve, note);
  const lost = markers.filter((m) => !out.includes(m));
  return lost.length > 0 ? out.replace(noteLine, [noteLine, ...lost].join("\n")) : out;
}
