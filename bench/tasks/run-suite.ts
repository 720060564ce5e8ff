/**
 * One bench suite: every task × run × scaffold on a fresh copy of the task's start. crewbot runs
 * its `implement` chain through `crewbot run` (the CLI's runCommand, in-process) and its diff is
 * applied to its copy; the baseline edits its copy in place. Then the hidden tests grade each
 * copy. A timeout or a crash is recorded as such and never counts as resolved.
 */
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Budgets } from "../../src/agent/budget.js";
import { createClient } from "../../src/agent/provider.js";
import type { CliIO } from "../../src/cli/io.js";
import { runCommand as crewbotRun } from "../../src/cli/run.js";
import type { RunReport } from "../../src/cli/report.js";
import type { SandboxInfo } from "../../src/tools/types.js";
import { runBaseline } from "../baseline-agent.js";
import { applyDiff, freshCopy, grade, materialise, useSandbox, type Materialised, type Task } from "./task-set.js";
import { pool } from "../pool.js";

export type Scaffold = "crewbot" | "baseline";
export const SCAFFOLDS: readonly Scaffold[] = ["crewbot", "baseline"];

export interface Attempt {
  task: string;
  run: number;
  scaffold: Scaffold;
  /** `done`; `stopped: <budget>`; `timeout`; `crash: <message>` (the run ended in an error, the scaffold's or the bench's). */
  status: string;
  resolved: boolean;
  costUsd: number;
  costEstimate: boolean;
  turns: number;
  wallMs: number;
  /** The tail of the hidden tests' output, or what went wrong. */
  detail?: string;
}

export interface SuiteOptions {
  tasks: Task[];
  runs: number;
  model: string;
  budgets: Budgets;
  concurrency: number;
  /** Per attempt, wall clock; past it the attempt is cancelled and counts as a timeout. */
  timeoutMs: number;
  sandbox: SandboxInfo;
  /** The model endpoint and key (the fake server's for scripted players). */
  apiKey: string;
  baseURL?: string;
  tarballCache: string;
  /** Extra variables for `crewbot run` (e.g. the operator's CREWBOT_ALLOW_UNSANDBOXED). */
  env?: NodeJS.ProcessEnv;
  onAttempt?: (attempt: Attempt) => void;
  /** Called with each task's materialised start before any player begins (tests check it for leaks). */
  onMaterialised?: (task: Task, m: Materialised) => void | Promise<void>;
}

export async function runSuite(opts: SuiteOptions): Promise<{ attempts: Attempt[]; materialised: Map<string, Materialised> }> {
  useSandbox(opts.sandbox);
  const work = await realpath(await mkdtemp(path.join(os.tmpdir(), "crewbot-bench-tasks-")));
  const materialised = new Map<string, Materialised>();
  try {
    for (const task of opts.tasks) {
      const m = await materialise(task, opts.tarballCache, path.join(work, "start", task.id));
      materialised.set(task.id, m);
      await opts.onMaterialised?.(task, m);
    }
    const jobs: Array<() => Promise<Attempt>> = [];
    for (let run = 1; run <= opts.runs; run++) {
      for (const task of opts.tasks) {
        for (const scaffold of SCAFFOLDS) jobs.push(() => attempt(opts, task, materialised.get(task.id)!, run, scaffold, work));
      }
    }
    const attempts = await pool(jobs, Math.max(1, opts.concurrency), (a) => opts.onAttempt?.(a));
    return { attempts, materialised };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function attempt(opts: SuiteOptions, task: Task, m: Materialised, run: number, scaffold: Scaffold, work: string): Promise<Attempt> {
  const base = path.join(work, `${task.id}-${run}-${scaffold}`);
  await mkdir(base, { recursive: true });
  const copy = await freshCopy(m.start, path.join(base, "checkout"));
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), opts.timeoutMs);
  const started = Date.now();
  const record = (fields: Omit<Attempt, "task" | "run" | "scaffold" | "wallMs">): Attempt => ({ task: task.id, run, scaffold, ...fields, wallMs: Date.now() - started });
  try {
    const played = scaffold === "crewbot" ? await playCrewbot(opts, task, copy, base, timer.signal) : await playBaseline(opts, task, copy, base, timer.signal);
    const wallMs = Date.now() - started;
    if (timer.signal.aborted) return { ...record({ ...played, status: "timeout", resolved: false }), wallMs };
    if (played.status.startsWith("crash")) return { ...record({ ...played, resolved: false }), wallMs };
    const graded = await grade(task, copy);
    return { ...record({ ...played, resolved: graded.resolved, detail: graded.resolved ? undefined : graded.output.slice(-1500) }), wallMs };
  } catch (error) {
    return record({ status: `crash: ${(error as Error).message.split("\n")[0]}`, resolved: false, costUsd: 0, costEstimate: false, turns: 0, detail: (error as Error).stack });
  } finally {
    clearTimeout(timeout);
    await rm(base, { recursive: true, force: true });
  }
}

type Played = Pick<Attempt, "status" | "costUsd" | "costEstimate" | "turns">;

async function playCrewbot(opts: SuiteOptions, task: Task, copy: string, base: string, signal: AbortSignal): Promise<Played> {
  let stdout = "";
  const stderr: string[] = [];
  const io: CliIO = {
    stdout: (t) => (stdout += t),
    stderr: (t) => stderr.push(t),
    env: { ...opts.env, ANTHROPIC_API_KEY: opts.apiKey, ANTHROPIC_BASE_URL: opts.baseURL ?? "", CREWBOT_DATA_DIR: path.join(base, "crewbot-data") },
    signal,
  };
  const args = { command: "run" as const, repo: copy, chain: "implement", json: true, model: opts.model, budgets: opts.budgets, network: false, allowUnsandboxed: false, request: task.issue };
  await crewbotRun(args, io);
  let report: RunReport;
  try {
    report = JSON.parse(stdout) as RunReport;
  } catch {
    throw new Error(`crewbot run printed no report: ${stderr.slice(-3).join(" | ") || "(no output)"}`);
  }
  if (report.diff) await applyDiff(copy, report.diff);
  const turns = report.steps.reduce((n, s) => n + s.turns, 0);
  const status = report.ok ? "done" : report.stopReason === "budget" && report.budget ? `stopped: ${report.budget}` : `crash: ${report.error ?? report.stopReason}`;
  return { status, costUsd: report.costUsd, costEstimate: report.costEstimate, turns };
}

async function playBaseline(opts: SuiteOptions, task: Task, copy: string, base: string, signal: AbortSignal): Promise<Played> {
  const scratchDir = path.join(base, "baseline-home");
  await mkdir(scratchDir, { recursive: true });
  const result = await runBaseline({
    root: copy,
    scratchDir: await realpath(scratchDir),
    issue: task.issue,
    client: createClient({ apiKey: opts.apiKey, baseURL: opts.baseURL }),
    model: opts.model,
    budgets: opts.budgets,
    sandbox: opts.sandbox,
    signal,
  });
  const status = result.stopReason === "done" ? "done" : result.stopReason === "error" ? `crash: ${result.error ?? "the baseline failed"}` : `stopped: ${result.stopReason}`;
  return { status, costUsd: result.costUsd, costEstimate: result.costEstimate, turns: result.turns };
}
