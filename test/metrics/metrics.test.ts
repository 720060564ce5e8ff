import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Metrics, metricsHandler } from "../../src/metrics/metrics.js";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serve(handler: ReturnType<typeof metricsHandler>): Promise<string> {
  const server = createServer((req, res) => void handler(req, res).then((done) => done || res.writeHead(404).end("next")));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("Metrics", () => {
  it("counts jobs by kind and state, their durations, tokens, cost and the rate limit", async () => {
    const m = new Metrics({ queued: async () => 3, running: async () => 1 }, { defaults: false });
    m.jobEnded("plan", "succeeded", 12_000);
    m.jobEnded("plan", "succeeded", 30_000);
    m.jobEnded("review", "deferred", 5);
    m.jobUsage("plan", { input: 100, output: 20, cacheRead: 0, cacheWrite: 7 }, 0.25);
    m.githubRateLimit(4242, "4999");
    m.githubRateLimit(4242, undefined); // a response without the header changes nothing
    const text = await m.registry.metrics();
    expect(text).toContain('crewbot_jobs_total{kind="plan",state="succeeded"} 2');
    expect(text).toContain('crewbot_jobs_total{kind="review",state="deferred"} 1');
    expect(text).toContain('crewbot_job_duration_seconds_count{kind="plan"} 2');
    expect(text).toContain('crewbot_job_duration_seconds_sum{kind="plan"} 42');
    expect(text).not.toContain('crewbot_job_duration_seconds_count{kind="review"}'); // a deferral is not a run
    expect(text).toContain('crewbot_tokens_total{kind="plan",type="input"} 100');
    expect(text).toContain('crewbot_tokens_total{kind="plan",type="cache_write"} 7');
    expect(text).not.toContain('type="cache_read"');
    expect(text).toContain('crewbot_cost_usd_total{kind="plan"} 0.25');
    expect(text).toContain('crewbot_github_rate_limit_remaining{installation="4242"} 4999');
    expect(text).toContain("crewbot_queue_depth 3");
    expect(text).toContain("crewbot_jobs_running 1");
  });
});

describe("metricsHandler", () => {
  it("serves /healthz and /metrics, and leaves other paths to the next handler", async () => {
    const m = new Metrics(undefined, { defaults: false });
    const base = await serve(metricsHandler(m, async () => ({ queue: "sqlite", queued: 0 })));
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok", queue: "sqlite", queued: 0 });
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await metrics.text()).toContain("# TYPE crewbot_jobs_total counter");
    expect(await (await fetch(`${base}/jobs`)).text()).toBe("next");
    expect((await fetch(`${base}/metrics`, { method: "POST" })).status).toBe(404);
  });

  it("answers 503 with the reason when the queue cannot be read", async () => {
    const base = await serve(metricsHandler(new Metrics(undefined, { defaults: false }), async () => Promise.reject(new Error("SQLITE_BUSY"))));
    const res = await fetch(`${base}/healthz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "error", error: "SQLITE_BUSY" });
  });
});
