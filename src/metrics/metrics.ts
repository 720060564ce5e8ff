/**
 * Prometheus metrics (`/metrics`) and the health check (`/healthz`): jobs by kind and outcome,
 * durations, queue depth, tokens, cost, and GitHub's remaining rate limit. One registry per
 * process (the app, or a worker), so several processes never overwrite each other's counters.
 */
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

  sandbox(info: { available: boolean; network?: { available: boolean } }): void {
    this.sandboxGauge.set({ feature: "bubblewrap" }, info.available ? 1 : 0);
    this.sandboxGauge.set({ feature: "network" }, info.network?.available === true ? 1 : 0);
  }

  githubRateLimit(installationId: number, remaining: string | number | undefined): void {
    const n = Number(remaining);
    if (remaining !== undefined && Number.isFinite(n)) this.rateLimit.set({ installation: String(installationId) }, n);
  }
}

/**
 * `GET /healthz` (200 while the process serves; the queue is asked so a lost store shows) and
 * `GET /metrics`, as a handler for Probot's server or a plain node:http server. Returns false
 * for any other path so the next handler gets it.
 */
export function metricsHandler(metrics: Metrics, health: () => Promise<Record<string, unknown>>) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    if (url.pathname === "/healthz") {
      try {
        const body = JSON.stringify({ status: "ok", ...(await health()) });
        res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" }).end(body);
      } catch (error) {
        res.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify({ status: "error", error: (error as Error).message }));
      }
      return true;
    }
    if (url.pathname === "/metrics") {
      const text = await metrics.registry.metrics();
      res.writeHead(200, { "content-type": metrics.registry.contentType, "cache-control": "no-store" }).end(text);
      return true;
    }
    return false;
  };
}
