/**
 * Throughput and memory, printed by `npm run bench` (`BENCH_ONLY=throughput` for this one alone):
 *  - 200 `/plan` jobs on 200 issues of one repository, queued first, then run by: the embedded queue
 *    (SQLite, `npm start`'s in-process worker), Redis with 1, 2 and 4 worker processes (each
 *    its own CREWBOT_DATA_DIR, sharing only the redis-server); jobs/s from the workers' start to the
 *    last job's end, and the speed-up over 1 worker (goal ≥ 3.5× at 4), jobs spread across installations
 *  - peak RSS of the embedded app process with 8 jobs running at once (goal < 1 GiB)
 * Every crewbot process is a child running the compiled app (bench/throughput-child.mjs) with GitHub as
 * nock inside it; this process serves the fake model (instant, or 2 s a reply for the RSS run), the git
 * repository, and a private redis-server, and watches the queue.
 * Jobs are enqueued the real way: signed `issue_comment.created` webhooks to the app's server while
 * no worker runs. Each job has its own installation: the app spaces GitHub writes 1 s apart per
 * installation, which on one installation would cap throughput at about 1 write a second.
 * BENCH_THROUGHPUT_JOBS=<n> queues another number of jobs.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFile } from "node:fs/promises";
import { cpus } from "node:os";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { openStores, type OpenedStores } from "../src/store/open-stores.js";
import type { JobRecord } from "../src/queue/types.js";
import { startRedis } from "../test/queue/redis-server.js";
import { issueCommentCreated, REPO_NAME, REPO_OWNER } from "../test/fixtures/payloads.js";
import { freePort, PRIVATE_KEY } from "../test/helpers/app-stand-ins.js";
import { startFakeAnthropic, type FakeServer } from "../test/helpers/fake-anthropic.js";
import { startGitHttpServer } from "../test/helpers/git-http-server.js";
import { makeRepo, tempDir } from "../test/helpers/git-repo.js";
import { signedPoster, TOKEN } from "./app.js";

const SECRET = "bench-secret";
const JOBS = Number(process.env.BENCH_THROUGHPUT_JOBS) || 200;
/**
 * Jobs at once per worker process (CREWBOT_WORKER_CONCURRENCY, its default; CREWBOT_GLOBAL_CONCURRENCY counts
 * per queue, so it is this × processes). At 8 a process, one of 80 jobs with 4 processes stayed running.
 */
const PER_PROCESS = 4;
const INSTALLATION_BASE = 700_000;
const ENDS = ["succeeded", "failed", "cancelled"];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One GitHub write a child answered: when (epoch ms), what, and the comment it created. */
export interface WriteRecord {
  t: number;
  method: string;
  path: string;
  id?: number;
}

export interface Child {
  pid: number;
  port?: number;
  /** Starts its worker; resolves when it runs. */
  go(): Promise<void>;
  /** Stops it gracefully; resolves with the GitHub writes it made. */
  stop(): Promise<{ writes: number; log: WriteRecord[] }>;
  kill(): void;
}

/** Every child still running: killed when this process exits, whatever happened (they also exit when their stdin closes). */
const live = new Set<ChildProcessWithoutNullStreams>();
process.once("exit", () => {
  for (const child of live) child.kill("SIGKILL");
});

/** A crewbot process (bench/throughput-child.mjs), ready: modules loaded, nock set, server listening. */
export async function spawnChild(env: Record<string, string>): Promise<Child> {
  const script = fileURLToPath(new URL("./throughput-child.mjs", import.meta.url));
  const base = Object.fromEntries(["PATH", "HOME", "TMPDIR", "LANG"].filter((k) => process.env[k]).map((k) => [k, process.env[k]!]));
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [script], { env: { ...base, ...env }, stdio: "pipe" });
  live.add(child);
  child.once("exit", () => live.delete(child));
  child.stderr.on("data", (d: Buffer) => process.stderr.write(`  [${env.BENCH_HOSTNAME}] ${d}`));
  const waiting = new Map<string, (message: Record<string, any>) => void>();
  const failed = new Promise<never>((_, reject) =>
    child.once("exit", (code, signal) => reject(new Error(`bench child ${env.BENCH_HOSTNAME} exited (${code ?? signal})`))),
  );
  failed.catch(() => {});
  readline.createInterface({ input: child.stdout }).on("line", (line) => {
    let message: Record<string, any> | undefined;
    try {
      message = JSON.parse(line) as Record<string, any>;
    } catch {
      /* a log line */
    }
    const key = message && ["ready", "going", "stopped"].find((k) => k in message!);
    if (key) waiting.get(key)?.(message!);
    else process.stderr.write(`  [${env.BENCH_HOSTNAME}] ${line}\n`);
  });
  const expect = (key: string) => Promise.race([new Promise<Record<string, any>>((resolve) => waiting.set(key, resolve)), failed]);
  const ready = await expect("ready");
  return {
    pid: child.pid!,
    port: ready.port as number | undefined,
    async go() {
      const going = expect("going");
      child.stdin.write("go\n");
      await going;
    },
    async stop() {
      const stopped = expect("stopped");
      child.stdin.write("stop\n");
      const { writes, log } = await stopped;
      return { writes: writes as number, log: log as WriteRecord[] };
    },
    kill: () => void child.kill("SIGKILL"),
  };
}

export interface Served {
  cloneUrl: string;
  close(): Promise<void>;
}

export async function serveRepo(): Promise<Served> {
  const root = await tempDir("crewbot-bench-served-");
  const git = await startGitHttpServer({ root, token: TOKEN });
  await makeRepo({ "README.md": "# bench\n", "src/a.ts": "export const a = 1;\n" }, `${root}/${REPO_OWNER}/${REPO_NAME}.git`);
  return { cloneUrl: git.cloneUrl(REPO_OWNER, REPO_NAME), close: () => git.close() };
}

/** Scout, then planner: each answers at once (or after `delay` ms). */
function fakeModel(delay = 0): Promise<FakeServer> {
  return startFakeAnthropic((request) =>
    JSON.stringify(request.body.system ?? "").includes("You are the planner")
      ? { text: "## Plan\n1. Read a.ts\n2. Change a\n3. Check", delay }
      : { text: "Scout report: src/a.ts.", delay },
  );
}

let commentBase = 0;

export function appEnv(role: "app" | "worker", name: string, model: FakeServer, extra: Record<string, string>): Promise<Record<string, string>> {
  return freePort().then(async (port) => ({
    BENCH_ROLE: role,
    BENCH_HOSTNAME: name,
    BENCH_TOKEN: TOKEN,
    APP_ID: "1",
    PRIVATE_KEY,
    WEBHOOK_SECRET: SECRET,
    ANTHROPIC_API_KEY: "sk-ant-bench",
    ANTHROPIC_BASE_URL: model.url,
    CREWBOT_DATA_DIR: await tempDir("crewbot-bench-"),
    CREWBOT_APP_SLUG: "crewbot",
    PORT: String(port),
    HOST: "127.0.0.1",
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "silent",
    BENCH_COMMENT_BASE: String((commentBase += 1_000_000)),
    ...extra,
  }));
}

/**
 * `count` signed `/plan` comments on issues 1…count, each issue in its own installation unless
 * `installationOf` says; each issue titled `bench-issue-<n>` (its jobs' model requests carry it). All must be acknowledged.
 */
export async function deliver(port: number, count: number, cloneUrl: string, installationOf = (i: number) => INSTALLATION_BASE + i): Promise<void> {
  const post = signedPoster(port);
  const payloads = Array.from({ length: count }, (_, i) => {
    const payload = issueCommentCreated("/plan", { cloneUrl, defaultBranch: "main" });
    payload.issue.number = i + 1;
    payload.comment.id = 9_000_000 + i;
    payload.installation.id = installationOf(i);
    payload.issue.title = `bench-issue-${i + 1}`;
    return payload;
  });
  let next = 0;
  const refused: number[] = [];
  await Promise.all(
    Array.from({ length: 25 }, async () => {
      while (next < payloads.length) {
        const status = await post(payloads[next++]!);
        if (status !== 200) refused.push(status);
      }
    }),
  );
  if (refused.length > 0) throw new Error(`${refused.length} webhooks refused: ${[...new Set(refused)].join(", ")}`);
}

async function all(queue: OpenedStores["queue"]): Promise<JobRecord[]> {
  return queue.listRecent({ limit: 100_000 });
}

/**
 * A running job's lease: renewed (its worker is alive and running it: slow, not lost) or lapsed (its
 * worker died or stalled; a recovery will requeue or end it).
 */
function leaseLine(job: JobRecord): string {
  if (job.state !== "running" || job.leaseExpiresAt === undefined) return "";
  const ahead = job.leaseExpiresAt - Date.now();
  const since = job.startedAt === undefined ? "" : `, started ${Math.round((Date.now() - job.startedAt) / 1000)} s ago`;
  return ahead > 0 ? `, lease renewed (${Math.round(ahead / 1000)} s ahead${since})` : `, lease lapsed ${Math.round(-ahead / 1000)} s ago${since}`;
}

/** Waits for `count` jobs in the queue, then for all of them to end; samples how many run at once. */
export async function watch(queue: OpenedStores["queue"], count: number, timeoutMs: number, onTick?: () => void): Promise<{ jobs: JobRecord[]; maxRunning: number }> {
  const t0 = Date.now();
  let maxRunning = 0;
  for (;;) {
    onTick?.();
    const jobs = await all(queue);
    maxRunning = Math.max(maxRunning, jobs.filter((j) => j.state === "running").length);
    if (jobs.length >= count && jobs.every((j) => ENDS.includes(j.state))) return { jobs, maxRunning };
    if (Date.now() - t0 > timeoutMs) {
      const states = jobs.reduce<Record<string, number>>((m, j) => ((m[j.state] = (m[j.state] ?? 0) + 1), m), {});
      const stuck = jobs.filter((j) => !ENDS.includes(j.state)).slice(0, 5).map((j) => `${j.id} ${j.state} on ${j.workerId ?? "?"}${leaseLine(j)} (${j.outcome ?? "no outcome"})`);
      throw new Error(`after ${timeoutMs / 1000} s: ${jobs.length} of ${count} jobs, ${JSON.stringify(states)}; not ended: ${stuck.join("; ")}`);
    }
    await sleep(100);
  }
}

export async function waitQueued(queue: OpenedStores["queue"], count: number): Promise<void> {
  const t0 = Date.now();
  while ((await all(queue)).length < count) {
    if (Date.now() - t0 > 20_000) throw new Error(`only ${(await all(queue)).length} of ${count} jobs queued after 20 s`);
    await sleep(50);
  }
}

/** Most jobs whose [startedAt, finishedAt] intervals overlap at one moment. */
function maxOverlap(jobs: JobRecord[]): number {
  const edges = jobs.flatMap((j) => (j.startedAt && j.finishedAt ? [[j.startedAt, 1] as const, [j.finishedAt, -1] as const] : []));
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let max = 0;
  for (const [, d] of edges) max = Math.max(max, (now += d));
  return max;
}

/** Outcomes of jobs that did not succeed, counted: "3× ❌ Failed: …". */
export function notSucceeded(jobs: JobRecord[]): string {
  const bad = jobs.filter((j) => j.state !== "succeeded");
  if (bad.length === 0) return "";
  const counts = new Map<string, number>();
  for (const j of bad) counts.set(`${j.state}: ${j.outcome ?? "(no outcome)"}`, (counts.get(`${j.state}: ${j.outcome ?? "(no outcome)"}`) ?? 0) + 1);
  return ` — ${bad.length} did not succeed: ${[...counts].map(([o, n]) => `${n}× ${o.slice(0, 300)}`).join("; ")}`;
}

interface Run {
  jobs: JobRecord[];
  seconds: number;
  perSecond: number;
  /** Jobs per worker id (one per process), and the most it ran at once. */
  byWorker: Array<{ jobs: number; atOnce: number }>;
  maxRunning: number;
  writes: number;
  /** CPU seconds of the worker process(es), and of this process (fake model, git server, watching), over the run. */
  workerCpu: number;
  parentCpu: number;
  meanJobMs: number;
}

/** JOBS /plan jobs queued by webhooks with no worker running, then run by the embedded worker or `workers` worker processes. */
async function throughputRun(redis: boolean, workers: number, served: Served, model: FakeServer): Promise<Run> {
  const server = redis ? await startRedis() : undefined;
  const children: Child[] = [];
  let view: OpenedStores | undefined;
  try {
    const limits = {
      CREWBOT_INSTALLATION_CONCURRENCY: String(PER_PROCESS),
      CREWBOT_GLOBAL_CONCURRENCY: String(PER_PROCESS * workers),
      CREWBOT_WORKER_CONCURRENCY: String(PER_PROCESS),
      ...(server ? { REDIS_URL: server.url } : {}),
    };
    const appEnvironment = await appEnv("app", "bench-app", model, limits);
    const app = await spawnChild(appEnvironment);
    children.push(app);
    view = await openStores({ REDIS_URL: server?.url }, appEnvironment.CREWBOT_DATA_DIR!);
    await deliver(app.port!, JOBS, served.cloneUrl);
    await waitQueued(view.queue, JOBS);
    const starting = redis ? await Promise.all(Array.from({ length: workers }, async (_, i) => spawnChild(await appEnv("worker", `bench-worker-${i + 1}`, model, limits)))) : [app];
    if (redis) children.push(...starting);
    const cpuBefore = (await Promise.all(starting.map((c) => cpuSeconds(c.pid)))).reduce((a, b) => a + b, 0);
    const parentBefore = (process.cpuUsage().user + process.cpuUsage().system) / 1e6;
    const t0 = Date.now();
    await Promise.all(starting.map((c) => c.go()));
    const { jobs, maxRunning } = await watch(view.queue, JOBS, 150_000).catch((e: Error) => {
      throw new Error(`${redis ? `Redis ${workers} worker process(es)` : "embedded"}: ${e.message}`);
    });
    const last = Math.max(...jobs.map((j) => j.finishedAt ?? 0));
    const seconds = (last - t0) / 1000;
    const byWorker = new Map<string, JobRecord[]>();
    for (const j of jobs) byWorker.set(j.workerId ?? "?", [...(byWorker.get(j.workerId ?? "?") ?? []), j]);
    const workerCpu = (await Promise.all(starting.map((c) => cpuSeconds(c.pid)))).reduce((a, b) => a + b, 0) - cpuBefore;
    const parentCpu = (process.cpuUsage().user + process.cpuUsage().system) / 1e6 - parentBefore;
    let writes = 0;
    for (const c of children.splice(0)) writes += (await c.stop()).writes;
    const timed = jobs.filter((j) => j.startedAt && j.finishedAt);
    return {
      jobs,
      seconds,
      perSecond: JOBS / seconds,
      byWorker: [...byWorker.values()].map((js) => ({ jobs: js.length, atOnce: maxOverlap(js) })).sort((a, b) => b.jobs - a.jobs),
      maxRunning: Math.max(maxRunning, maxOverlap(jobs)),
      writes,
      workerCpu,
      parentCpu,
      meanJobMs: timed.reduce((s, j) => s + (j.finishedAt! - j.startedAt!), 0) / Math.max(1, timed.length),
    };
  } finally {
    for (const c of children) c.kill();
    for (const c of live) c.kill("SIGKILL"); // also any spawned while another failed
    await view?.close();
    await server?.stop();
  }
}

/** User + system CPU seconds a process has used (/proc/<pid>/stat, clock ticks of 10 ms). */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime (fields 14 and 15)
}

/** VmRSS and VmHWM of a process, in bytes. */
async function memoryOf(pid: number): Promise<{ rss: number; hwm: number }> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

/** The embedded app process with 8 jobs at once, against a model that takes 2 s a reply; its RSS sampled every 50 ms. */
async function peakRss(served: Served): Promise<{ peak: number; hwm: number; idle: number; overlap: number; jobs: JobRecord[] }> {
  const count = 8;
  const model = await fakeModel(2_000);
  const env = await appEnv("app", "bench-rss", model, { CREWBOT_INSTALLATION_CONCURRENCY: String(count), CREWBOT_GLOBAL_CONCURRENCY: String(count), CREWBOT_WORKER_CONCURRENCY: String(count) });
  const app = await spawnChild(env);
  const view = await openStores({}, env.CREWBOT_DATA_DIR!);
  try {
    await deliver(app.port!, count, served.cloneUrl);
    await waitQueued(view.queue, count);
    const idle = (await memoryOf(app.pid)).rss;
    let peak = idle;
    const sampler = setInterval(() => void memoryOf(app.pid).then((m) => (peak = Math.max(peak, m.rss)), () => {}), 50);
    await app.go();
    const { jobs } = await watch(view.queue, count, 60_000);
    clearInterval(sampler);
    const { hwm } = await memoryOf(app.pid);
    await app.stop();
    return { peak, hwm, idle, overlap: maxOverlap(jobs), jobs };
  } finally {
    app.kill();
    await view.close();
    await model.close();
  }
}

const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(0)} MiB`;

export async function throughputBench(): Promise<string[]> {
  const served = await serveRepo();
  const model = await fakeModel();
  const lines: string[] = [];
  try {
    const embedded = await throughputRun(false, 1, served, model);
    const one = await throughputRun(true, 1, served, model);
    const two = await throughputRun(true, 2, served, model);
    const four = await throughputRun(true, 4, served, model);
    const speedUp = four.perSecond / one.perSecond;
    const describe = (name: string, r: Run) =>
      `${name} ${r.perSecond.toFixed(2)} jobs/s (${r.seconds.toFixed(1)} s, up to ${r.maxRunning} at once, mean job ${(r.meanJobMs / 1000).toFixed(1)} s, ` +
      `${(r.writes / JOBS).toFixed(1)} GitHub writes a job, worker CPU ${r.workerCpu.toFixed(1)} s + bench process ${r.parentCpu.toFixed(1)} s on ${cpus().length} CPUs${r.byWorker.length > 1 ? `, per process ${r.byWorker.map((w) => `${w.jobs} jobs (up to ${w.atOnce} at once)`).join(" / ")}` : ""})${notSucceeded(r.jobs)}`;
    lines.push(
      `throughput: ${JOBS} /plan jobs on ${JOBS} issues of one repository, instant fake model, GitHub nock at once; queued by signed webhooks with no worker running, ` +
        `timed from the workers' start to the last job's end; ${PER_PROCESS} jobs at once per worker process; each job in its own installation ` +
        `(the app spaces GitHub writes 1 s apart per installation, so a job lasts at least its writes' spacing and one installation would cap this at ~1 write/s); ` +
        `CREWBOT_WORKER_CONCURRENCY ${PER_PROCESS} and CREWBOT_GLOBAL_CONCURRENCY (counted per queue) ${PER_PROCESS} × worker processes: ` +
        [describe("embedded (SQLite, in-process worker)", embedded), describe("Redis 1 worker process", one), describe("Redis 2 worker processes", two), describe("Redis 4 worker processes", four)].join("; "),
      `throughput speed-up across installations (jobs/s over 1 worker process, each its own data dir, one Redis): 2 workers ${(two.perSecond / one.perSecond).toFixed(2)}×, ` +
        `4 workers ${speedUp.toFixed(2)}× (goal ≥ 3.5× at 4) ${speedUp >= 3.5 ? "✓" : "✗"}${cpus().length < 4 ? ` — on ${cpus().length} CPUs, which 4 processes and this one share` : ""}; Redis 1 worker / embedded ${(one.perSecond / embedded.perSecond).toFixed(2)}×`,
    );
    const rss = await peakRss(served);
    const goal = 1024 ** 3;
    lines.push(
      `peak RSS of the embedded app process (compiled) with 8 /plan jobs at once (fake model 2 s a reply; ${rss.overlap} of 8 overlapped${rss.overlap < 8 ? " ✗ not all" : ""}): ` +
        `${mib(rss.peak)} sampled every 50 ms (VmHWM ${mib(rss.hwm)}, ${mib(rss.idle)} with the jobs queued and no worker) (goal < 1024 MiB) ${Math.max(rss.peak, rss.hwm) < goal ? "✓" : "✗"}${notSucceeded(rss.jobs)}`,
    );
    return lines;
  } finally {
    await model.close().catch((e: unknown) => console.warn(`  fake model: ${(e as Error).message}`));
    await served.close();
  }
}
