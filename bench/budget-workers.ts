/**
 * The shared write budget through real worker processes, printed by `npm run bench`
 * (`BENCH_ONLY=budget-workers` for this one alone; it takes real minutes, about 6 a run):
 * 40 `/plan` jobs on ONE installation (issues 1…40 of one repository), queued by signed webhooks to
 * the compiled app on Redis with no worker running, then run by 2 and then 4 `npm run worker`
 * processes (bench/throughput-child.mjs, each its own CREWBOT_DATA_DIR, 8 jobs at once each), sharing
 * only a private redis-server, on the real clock. GitHub is nock inside each process, timestamping every
 * POST/PATCH/PUT/DELETE it answers (installation tokens aside); the model is instant.
 * Figures: the most of those writes in any 60 s and any hour, across all processes (GitHub's
 * secondary limits: 80 and 500), the final edits' waits (a job's planner answered → that job's
 * progress comment's last edit), and jobs per second from the workers' start to the last job's end.
 * BENCH_BUDGET_JOBS=<n> queues another number of jobs. bench/shared-budget.ts measures the same budget with the gates alone in one process, on a virtual clock.
 */
import { openStores, type OpenedStores } from "../src/store/open-stores.js";
import { startRedis } from "../test/queue/redis-server.js";
import { startFakeAnthropic, type FakeServer } from "../test/helpers/fake-anthropic.js";
import { mostIn } from "./shared-budget.js";
import { appEnv, deliver, notSucceeded, serveRepo, spawnChild, waitQueued, watch, type Child, type Served, type WriteRecord } from "./throughput.js";

const JOBS = Number(process.env.BENCH_BUDGET_JOBS) || 40;
const INSTALLATION = 4343;
const PER_PROCESS = 8;

/** Scout, then planner, at once; when each issue's planner was asked (its title names the issue). */
async function timedModel(): Promise<{ model: FakeServer; planned: Map<number, number> }> {
  const planned = new Map<number, number>();
  const model = await startFakeAnthropic((request) => {
    if (!JSON.stringify(request.body.system ?? "").includes("You are the planner")) return { text: "Scout report: src/a.ts." };
    const issue = Number(/bench-issue-(\d+)/.exec(JSON.stringify(request.body.messages))?.[1]);
    if (issue) planned.set(issue, Date.now());
    return { text: "## Plan\n1. Read a.ts\n2. Change a\n3. Check" };
  });
  return { model, planned };
}

/** Per issue's progress comment (the POST that created it): its last edit's time. */
function finalEdits(log: WriteRecord[]): Map<number, number> {
  const issueOf = new Map<number, number>();
  for (const w of log) {
    const issue = /\/issues\/(\d+)\/comments$/.exec(w.path)?.[1];
    if (w.method === "POST" && issue && w.id !== undefined) issueOf.set(w.id, Number(issue));
  }
  const last = new Map<number, number>();
  for (const w of log) {
    const id = Number(/\/issues\/comments\/(\d+)$/.exec(w.path)?.[1]);
    const issue = w.method === "PATCH" ? issueOf.get(id) : undefined;
    if (issue !== undefined) last.set(issue, Math.max(last.get(issue) ?? 0, w.t));
  }
  return last;
}

async function run(workers: number, served: Served): Promise<string> {
  const redis = await startRedis();
  const { model, planned } = await timedModel();
  const children: Child[] = [];
  let view: OpenedStores | undefined;
  try {
    const limits = {
      REDIS_URL: redis.url,
      CREWBOT_INSTALLATION_CONCURRENCY: String(PER_PROCESS * workers),
      CREWBOT_GLOBAL_CONCURRENCY: String(PER_PROCESS * workers),
      CREWBOT_WORKER_CONCURRENCY: String(PER_PROCESS),
      // All 40 come from one person: above the default burst (20) the rest would be told to slow down.
      CREWBOT_COMMANDS_BURST: String(JOBS),
    };
    const appEnvironment = await appEnv("app", "bench-budget-app", model, limits);
    const app = await spawnChild(appEnvironment);
    children.push(app);
    view = await openStores({ REDIS_URL: redis.url }, appEnvironment.CREWBOT_DATA_DIR!);
    await deliver(app.port!, JOBS, served.cloneUrl, () => INSTALLATION);
    await waitQueued(view.queue, JOBS);
    const started = await Promise.all(Array.from({ length: workers }, async (_, i) => spawnChild(await appEnv("worker", `bench-budget-worker-${i + 1}`, model, limits))));
    children.push(...started);
    const t0 = Date.now();
    await Promise.all(started.map((c) => c.go()));
    const { jobs } = await watch(view.queue, JOBS, 30 * 60_000);
    const seconds = (Math.max(...jobs.map((j) => j.finishedAt ?? 0)) - t0) / 1000;
    const log: WriteRecord[] = [];
    for (const c of children.splice(0)) log.push(...(await c.stop()).log);
    const times = log.map((w) => w.t);
    const waits = [...finalEdits(log)].flatMap(([issue, at]) => (planned.has(issue) ? [(at - planned.get(issue)!) / 1000] : [])).sort((a, b) => a - b);
    const p = (q: number) => (waits.length === 0 ? "n/a" : `${waits[Math.min(waits.length - 1, Math.floor(q * waits.length))]!.toFixed(0)} s`);
    const span = (Math.max(...times) - Math.min(...times)) / 60_000;
    const methods = [...new Set(log.map((w) => w.method))].map((m) => `${log.filter((w) => w.method === m).length} ${m}`).join(", ");
    const most60 = mostIn(times, 60_000);
    const mostHour = mostIn(times, 3_600_000);
    return (
      `${workers} worker processes: ${log.length} writes (${methods}) over ${span.toFixed(1)} minutes; most in any 60 s ${most60} (goal ≤ 80) ${most60 <= 80 ? "✓" : "✗"}, ` +
      `in any hour ${mostHour} (goal ≤ 500) ${mostHour <= 500 ? "✓" : "✗"}; final edits waited p50 ${p(0.5)}, max ${p(1)} (${waits.length} of ${JOBS} timed); ` +
      `${(JOBS / seconds).toFixed(3)} jobs/s (${seconds.toFixed(0)} s)${notSucceeded(jobs)}`
    );
  } finally {
    for (const c of children) c.kill();
    await view?.close();
    await model.close().catch(() => undefined);
    await redis.stop();
  }
}

export async function budgetWorkersBench(): Promise<string[]> {
  const served = await serveRepo();
  try {
    return [
      `shared write budget through real worker processes (${JOBS} /plan jobs, one installation, Redis, real clock; key: writes = every POST/PATCH/PUT/DELETE GitHub answered, app and workers together; ` +
        `wait = the job's planner answered → its progress comment's last edit):`,
      `  ${await run(2, served)}`,
      `  ${await run(4, served)}`,
    ];
  } finally {
    await served.close();
  }
}
