/**
 * Verifies every task: the tarball matches its integrity hash, the break applies, the start is one
 * commit holding no hidden test, the hidden tests fail on the start and pass with the reference
 * change. `npm run bench:tasks -- --check`.
 */
import { mkdtemp, readdir, readFile, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { SandboxInfo } from "../../src/tools/types.js";
import { applyDiff, freshCopy, git, grade, HIDDEN_DIR, materialise, useSandbox, type Materialised, type Task } from "./task-set.js";

export interface TaskCheck {
  task: string;
  ok: boolean;
  problems: string[];
}

/** Files of a tree (without .git), relative. */
async function filesOf(root: string, dir = ""): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(path.join(root, dir), { withFileTypes: true })) {
    if (e.name === ".git") continue;
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesOf(root, rel)));
    else out.push(rel);
  }
  return out;
}

/** What a player must never find in its checkout: the hidden tests, or the working code in the history. */
export async function leaksOf(task: Task, m: Materialised): Promise<string[]> {
  const problems: string[] = [];
  const commits = (await git(m.start, "rev-list", "--all")).trim().split("\n");
  if (commits.length !== 1) problems.push(`the start has ${commits.length} commits; it must have exactly one`);
  const untracked = (await git(m.start, "status", "--porcelain", "--ignored")).trim();
  if (untracked !== "") problems.push(`the start's commit does not hold every file: ${untracked.split("\n").slice(0, 5).join(", ")}`);
  const files = await filesOf(m.start);
  if (files.some((f) => f.includes(HIDDEN_DIR) || f.startsWith("hidden"))) problems.push("a hidden test directory is in the checkout");
  const sources = await Promise.all(files.map((f) => readFile(path.join(m.start, f), "utf8").catch(() => "")));
  for (const [name, source] of task.hidden) {
    const probe = source.split("\n").find((l) => l.startsWith("test("));
    if (probe && sources.some((s) => s.includes(probe))) problems.push(`hidden test ${name} appears in the checkout`);
  }
  for (const [file, fixed] of m.fixedFiles) {
    if ((await readFile(path.join(m.start, file), "utf8")) === fixed) problems.push(`${file} is already fixed at the start`);
  }
  return problems;
}

const OPEN_LICENCES = new Set(["MIT", "ISC", "BSD-2-Clause", "BSD-3-Clause", "0BSD", "Apache-2.0"]);

/** The package says what the task says: its name, version and licence (an open one), and it needs no dependencies. */
async function manifestProblems(task: Task, start: string): Promise<string[]> {
  const manifest = JSON.parse(await readFile(path.join(start, "package.json"), "utf8")) as Record<string, unknown>;
  const problems: string[] = [];
  if (manifest.name !== task.package || manifest.version !== task.version) problems.push(`package.json is ${String(manifest.name)}@${String(manifest.version)}, not ${task.package}@${task.version}`);
  if (manifest.license !== task.licence) problems.push(`package.json's licence is ${String(manifest.license)}, the task says ${task.licence}`);
  if (!OPEN_LICENCES.has(task.licence)) problems.push(`licence ${task.licence} is not one the bench may use`);
  const deps = Object.keys((manifest.dependencies as Record<string, string> | undefined) ?? {});
  if (deps.length > 0 && task.setup.trim() === "") problems.push(`it has dependencies (${deps.join(", ")}) and no setup command`);
  return problems;
}

export async function checkTask(task: Task, cacheDir: string): Promise<TaskCheck> {
  const work = await realpath(await mkdtemp(path.join(os.tmpdir(), `crewbot-bench-check-${task.id}-`)));
  const problems: string[] = [];
  try {
    const m = await materialise(task, cacheDir, path.join(work, "start"));
    problems.push(...(await leaksOf(task, m)), ...(await manifestProblems(task, m.start)));
    const before = await grade(task, m.start);
    if (before.resolved) problems.push("the hidden tests pass on the task's start");
    const fixed = await freshCopy(m.start, path.join(work, "fixed"));
    await applyDiff(fixed, m.reference);
    const after = await grade(task, fixed);
    if (!after.resolved) problems.push(`the hidden tests fail with the reference change:\n${after.output}`);
  } catch (error) {
    problems.push((error as Error).message);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return { task: task.id, ok: problems.length === 0, problems };
}

export async function checkTasks(tasks: Task[], cacheDir: string, sandbox: SandboxInfo, onCheck?: (c: TaskCheck) => void): Promise<TaskCheck[]> {
  useSandbox(sandbox);
  const checks: TaskCheck[] = [];
  for (const task of tasks) {
    const c = await checkTask(task, cacheDir);
    onCheck?.(c);
    checks.push(c);
  }
  return checks;
}
