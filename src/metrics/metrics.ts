/**
 * Prometheus metrics (`/metrics`) and the health check (`/healthz`): jobs by kind and outcome,
 * durations, queue depth, tokens, cost, and GitHub's remaining rate limit. One registry per
 * process (the app, or a worker), so several processes never overwrite each other's counters.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { Usage } from "../agent/pricing.js";

export interface QueueDepth {
  queued(): Promise<number>;
  running(): Promise<number>;
}

export class Metrics {
  readonly registry = new Registry();
  private readonly jobs: Counter<"kind" | "state">;
  private readonly durations: Histogram<"kind">;
  private readonly tokens: Counter<"kind" | "type">;
  private readonly cost: Counter<"kind">;
  private readonly rateLimit: Gauge<"installation">;
  private readonly sandboxGauge: Gauge<"feature">;
  private readonly reviews: Counter;
  private readonly findingsPosted: Counter<"verified">;
  private readonly endsCounter: Counter<"end" | "verified" | "merged">;
  private readonly firstReview: Histogram;

  constructor(depth?: QueueDepth, opts: { defaults?: boolean } = {}) {
    const registers = [this.registry];
    if (opts.defaults !== false) collectDefaultMetrics({ register: this.registry, prefix: "crewbot_process_" });
    this.jobs = new Counter({ name: "crewbot_jobs_total", help: "Jobs ended, by kind and end state", labelNames: ["kind", "state"], registers });
    this.durations = new Histogram({
      name: "crewbot_job_duration_seconds",
      help: "Wall time of ended jobs",
      labelNames: ["kind"],
      buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600],
      registers,
    });
    this.tokens = new Counter({ name: "crewbot_tokens_total", help: "Model tokens used by jobs", labelNames: ["kind", "type"], registers });
    this.cost = new Counter({ name: "crewbot_cost_usd_total", help: "Model cost of jobs in US dollars (priced from the known-model table)", labelNames: ["kind"], registers });
    this.sandboxGauge = new Gauge({ name: "crewbot_sandbox_available", help: "1 when the start-up probe found the OS sandbox working (feature=bubblewrap) and its egress-only network (feature=network), else 0", labelNames: ["feature"], registers });
    this.rateLimit = new Gauge({ name: "crewbot_github_rate_limit_remaining", help: "GitHub API requests left in the current window, per installation", labelNames: ["installation"], registers });
    // Quality figures without personal data and without repository names (docs/decisions.md): installation-wide totals of this process.
    this.reviews = new Counter({ name: "crewbot_reviews_total", help: "Reviews posted (automatic or /review; findings or clean)", registers });
    this.findingsPosted = new Counter({ name: "crewbot_findings_posted_total", help: "Findings posted in reviews, by verified (reproduced or unverified)", labelNames: ["verified"], registers });
    this.endsCounter = new Counter({
      name: "crewbot_findings_ended_total",
      help: "Findings of pull requests that merged or closed, by end (fixed, dismissed, open), verified (reproduced or unverified) and merged (true or false)",
      labelNames: ["end", "verified", "merged"],
      registers,
    });
    this.firstReview = new Histogram({
      name: "crewbot_first_review_seconds",
      help: "Time from a pull request's opening to crewbot's first review of it",
      buckets: [30, 60, 120, 300, 600, 1800, 3600, 4 * 3600, 86_400, 7 * 86_400],
      registers,
    });
    if (depth) {
      new Gauge({ name: "crewbot_queue_depth", help: "Jobs waiting in the queue", registers, collect: async function () { this.set(await depth.queued()); } });
      new Gauge({ name: "crewbot_jobs_running", help: "Jobs running now, across workers", registers, collect: async function () { this.set(await depth.running()); } });
    }
  }

  jobEnded(kind: string, state: string, durationMs: number): void {
    this.jobs.inc({ kind, state });
    if (state !== "deferred") this.durations.observe({ kind }, durationMs / 1000);
  }

  jobUsage(kind: string, usage: Usage, costUsd: number): void {
    for (const [type, n] of Object.entries({ input: usage.input, output: usage.output, cache_read: usage.cacheRead, cache_write: usage.cacheWrite })) {
      if (n > 0) this.tokens.inc({ kind, type }, n);
    }
    if (costUsd > 0) this.cost.inc({ kind }, costUsd);
  }

  /** A review posted, with its findings by whether a proof reproduced them. */
  reviewPosted(findings: { reproduced: number; unverified: number }): void {
    this.reviews.inc();
    for (const verified of ["reproduced", "unverified"] as const) if (findings[verified] > 0) this.findingsPosted.inc({ verified }, findings[verified]);
  }

  /** A pull request's first review, `seconds` after it opened. */
  firstReviewAfter(seconds: number): void {
    this.firstReview.observe(seconds);
  }

  /** The ends of a pull request's findings when it merged or closed. */
  findingsEnded(ends: Record<"reproduced" | "unverified", Record<string, number>>, merged: boolean): void {
    for (const verified of ["reproduced", "unverified"] as const) {
      for (const [end, n] of Object.entries(ends[verified])) if (n > 0) this.endsCounter.inc({ end, verified, merged: String(merged) }, n);
    }
  }

  sandbox(info: { available: boolean; network?: { available: boolean } }): void {
    this.sandboxGauge.set({ feature: "bubblewrap" }, info.available ? 1 : 0);
    this.sandboxGauge.set({ feature: "network" }, info.network?.available === true ? 1 : 0);
  }

  githubRateLimit(installationId: number, remaining: string | number | undefined): void {
    const n = Number(remaining);
    if (remaining !== undefined && Number.isFinite(n)) this.rateLimit.set({ installation: String(installationId) }, n);
  }
}

/** Who may read `/metrics`: holders of the operator's token, or (without one) this host only. */
export interface MetricsAccess {
  /** `CREWBOT_METRICS_TOKEN`: when set, `Authorization: Bearer <token>` is required of everyone. */
  token?: string;
}

/** The operator's setting; an empty variable is no token (it would let an empty bearer in). */
export function metricsAccess(env: NodeJS.ProcessEnv): MetricsAccess {
  const token = env.CREWBOT_METRICS_TOKEN?.trim();
  return token ? { token } : {};
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** The peer's own address: `X-Forwarded-For` is whatever the client wrote, so it is never read. */
function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  return address === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** 200 when the request may read the metrics, else the status to refuse it with. Pure. */
export function metricsVerdict(req: Pick<IncomingMessage, "headers" | "socket">, access: MetricsAccess): 200 | 401 | 403 {
  if (access.token === undefined) return isLoopback(req.socket?.remoteAddress) ? 200 : 403;
  const match = /^Bearer ([^\s]+)\s*$/i.exec(req.headers.authorization ?? "");
  // Hashed first: equal lengths for timingSafeEqual, and no time that depends on the token's length.
  return match && timingSafeEqual(digest(match[1]!), digest(access.token)) ? 200 : 401;
}

/**
 * `GET /healthz` (200 while the process serves; the queue is asked so a lost store shows, but
 * only `ok` and the sandbox's state are shown, to anyone) and `GET /metrics` (to the operator:
 * see `metricsVerdict`), as a handler for Probot's server or a plain node:http server. Returns
 * false for any other path so the next handler gets it.
 */
export function metricsHandler(metrics: Metrics, health: () => Promise<{ sandbox: Record<string, unknown> }>, access: MetricsAccess = {}, log?: { warn(message: string): void }) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    if (url.pathname === "/healthz") {
      try {
        const { sandbox } = await health();
        res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify({ status: "ok", sandbox }));
      } catch (error) {
        log?.warn(`/healthz: ${(error as Error).message}`);
        res.writeHead(503, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify({ status: "error" }));
      }
      return true;
    }
    if (url.pathname === "/metrics") {
      const verdict = metricsVerdict(req, access);
      if (verdict !== 200) {
        const headers: Record<string, string> = { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" };
        if (verdict === 401) headers["www-authenticate"] = 'Bearer realm="crewbot metrics"';
        res.writeHead(verdict, headers).end(verdict === 401 ? "A bearer token (CREWBOT_METRICS_TOKEN) is required.\n" : "Metrics are served to this host only (set CREWBOT_METRICS_TOKEN to read them from elsewhere).\n");
        return true;
      }
      const text = await metrics.registry.metrics();
      res.writeHead(200, { "content-type": metrics.registry.contentType, "cache-control": "no-store" }).end(text);
      return true;
    }
    return false;
  };
}
