import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Metrics, metricsAccess, metricsHandler, metricsVerdict } from "../../src/metrics/metrics.js";

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
  const sandbox = { available: true, network: false, allowUnsandboxed: false };

  it("serves /healthz and /metrics, and leaves other paths to the next handler", async () => {
    const m = new Metrics(undefined, { defaults: false });
    const base = await serve(metricsHandler(m, async () => ({ sandbox })));
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok", sandbox });
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await metrics.text()).toContain("# TYPE crewbot_jobs_total counter");
    expect(await (await fetch(`${base}/jobs`)).text()).toBe("next");
    expect((await fetch(`${base}/metrics`, { method: "POST" })).status).toBe(404);
  });

  it("answers 503 without the reason when the queue cannot be read, and logs it", async () => {
    const warnings: string[] = [];
    const base = await serve(metricsHandler(new Metrics(undefined, { defaults: false }), async () => Promise.reject(new Error("SQLITE_BUSY: /data/jobs.db")), {}, { warn: (m) => warnings.push(m) }));
    const res = await fetch(`${base}/healthz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "error" });
    expect(warnings).toEqual(["/healthz: SQLITE_BUSY: /data/jobs.db"]);
  });

  it("/healthz shows only ok and the sandbox, whatever the health check knows (no installation ids, limits, costs or counts)", async () => {
    const m = new Metrics({ queued: async () => 3, running: async () => 1 }, { defaults: false });
    m.githubRateLimit(4242, "4999");
    m.jobUsage("plan", { input: 100, output: 20, cacheRead: 0, cacheWrite: 0 }, 0.25);
    const known = { sandbox, installations: [4242], limits: { perInstallation: 2 }, costUsd: 0.25, queued: 3 };
    const base = await serve(metricsHandler(m, async () => known, { token: "s3cret-metrics-token" }));
    const text = await (await fetch(`${base}/healthz`)).text();
    expect(JSON.parse(text)).toEqual({ status: "ok", sandbox });
    expect(text).not.toMatch(/4242|0\.25|perInstallation|queued/);
  });

  it("with CREWBOT_METRICS_TOKEN, /metrics takes only `Authorization: Bearer <token>`, from loopback too", async () => {
    const m = new Metrics(undefined, { defaults: false });
    m.githubRateLimit(4242, "4999");
    const token = "s3cret-metrics-token";
    const base = await serve(metricsHandler(m, async () => ({ sandbox }), metricsAccess({ CREWBOT_METRICS_TOKEN: token })));
    const refused = [undefined, "Bearer", "Bearer ", `Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, `Basic ${token}`, token, `Bearer  ${token} extra`];
    for (const authorization of refused) {
      const res = await fetch(`${base}/metrics`, { headers: authorization === undefined ? {} : { authorization } });
      expect([authorization, res.status, res.headers.get("www-authenticate")]).toEqual([authorization, 401, 'Bearer realm="crewbot metrics"']);
      expect(await res.text()).not.toContain("4242");
    }
    const ok = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('crewbot_github_rate_limit_remaining{installation="4242"} 4999');
    expect((await fetch(`${base}/healthz`)).status).toBe(200); // health stays open
  });

  it("without a token, /metrics is for loopback clients only; X-Forwarded-For is never believed", async () => {
    const verdict = (remoteAddress: string | undefined, headers: Record<string, string> = {}) => metricsVerdict({ headers, socket: { remoteAddress } } as never, {});
    expect(verdict("127.0.0.1")).toBe(200);
    expect(verdict("127.8.9.10")).toBe(200);
    expect(verdict("::1")).toBe(200);
    expect(verdict("::ffff:127.0.0.1")).toBe(200);
    expect(verdict("203.0.113.7")).toBe(403);
    expect(verdict("203.0.113.7", { "x-forwarded-for": "127.0.0.1" })).toBe(403);
    expect(verdict("203.0.113.7", { "x-real-ip": "127.0.0.1", forwarded: "for=127.0.0.1" })).toBe(403);
    expect(verdict("10.0.0.1", { authorization: "Bearer anything" })).toBe(403);
    expect(verdict("::ffff:10.0.0.1")).toBe(403);
    expect(verdict("::2")).toBe(403);
    expect(verdict("1127.0.0.1")).toBe(403);
    expect(verdict(undefined)).toBe(403);
    expect(metricsAccess({ CREWBOT_METRICS_TOKEN: "  " })).toEqual({}); // an empty token is no token

    // Through the handler: a remote client is answered 403 and reads nothing.
    const m = new Metrics(undefined, { defaults: false });
    m.githubRateLimit(4242, "4999");
    const handler = metricsHandler(m, async () => ({ sandbox }));
    const sent: { status?: number; body?: string } = {};
    const res = { writeHead: (status: number) => ((sent.status = status), res), end: (body: string) => void (sent.body = body) };
    const req = { method: "GET", url: "/metrics", headers: { "x-forwarded-for": "127.0.0.1" }, socket: { remoteAddress: "198.51.100.4" } };
    expect(await handler(req as never, res as never)).toBe(true);
    expect(sent.status).toBe(403);
    expect(sent.body).toMatch(/^Metrics are served to this host only/);
    expect(sent.body).not.toContain("4242");
  });
});
