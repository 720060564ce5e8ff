/**
 * The bench's task set: each directory under bench/tasks/ is one task made from a published npm
 * package (name and exact version, its tarball checked against the registry's integrity hash),
 * with our own `break.patch` that re-introduces a real bug or removes a small documented feature.
 * A task's start is the package with the patch applied, committed as the only commit — no history
 * holds the working code — and the reference change is that patch reversed. Hidden tests stay in
 * this repository and are copied next to a player's result only after the player has finished.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, readdir, realpath, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { runCommand } from "../../src/tools/run-command.js";
import type { SandboxInfo } from "../../src/tools/types.js";

const run = promisify(execFile);
export const TASKS_DIR = path.dirname(fileURLToPath(import.meta.url));
/** Where a grading copy holds the hidden tests; the tests import the package as `../<main>`. */
export const HIDDEN_DIR = "__hidden_tests__";

export interface TaskMeta {
  id: string;
  package: string;
  version: string;
  /** `npm view <package>@<version> dist.integrity`. */
  integrity: string;
  licence: string;
  /** Where the code comes from (the registry page and the upstream repository). */
  origin: string;
  kind: "bug" | "feature";
  /** What the break re-introduces or removes, and where upstream history records it. */
  history: string;
  /** Run in the grading copy before the hidden tests (sandboxed, network off); "" when the package needs nothing. */
  setup: string;
}

export interface Task extends TaskMeta {
  dir: string;
  issue: string;
  breakPatch: string;
  /** Hidden test files: name → source. */
  hidden: Map<string, string>;
}

export async function loadTasks(only?: string[]): Promise<Task[]> {
  const ids = (await readdir(TASKS_DIR, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && existsSync(path.join(TASKS_DIR, e.name, "task.json")))
    .map((e) => e.name)
    .sort();
  const unknown = (only ?? []).filter((id) => !ids.includes(id));
  if (unknown.length > 0) throw new Error(`unknown task(s): ${unknown.join(", ")}; known: ${ids.join(", ")}`);
  const tasks = await Promise.all(ids.map(loadTask));
  // The scripted players tell tasks apart by the issue's first line.
  const titles = new Map<string, string>();
  for (const t of tasks) {
    const title = t.issue.split("\n")[0]!;
    if (titles.has(title)) throw new Error(`tasks ${titles.get(title)} and ${t.id} have the same issue title "${title}"`);
    titles.set(title, t.id);
  }
  return tasks.filter((t) => !only || only.includes(t.id));
}

async function loadTask(id: string): Promise<Task> {
  const dir = path.join(TASKS_DIR, id);
  const meta = JSON.parse(await readFile(path.join(dir, "task.json"), "utf8")) as TaskMeta;
  if (meta.id !== id) throw new Error(`task ${id}: task.json says id "${meta.id}"`);
  const hidden = new Map<string, string>();
  for (const name of (await readdir(path.join(dir, "hidden"))).sort()) {
    if (name.endsWith(".test.mjs")) hidden.set(name, await readFile(path.join(dir, "hidden", name), "utf8"));
  }
  if (hidden.size === 0) throw new Error(`task ${id}: no hidden/*.test.mjs`);
  return {
    ...meta,
    dir,
    issue: (await readFile(path.join(dir, "issue.md"), "utf8")).trim(),
    breakPatch: await readFile(path.join(dir, "break.patch"), "utf8"),
    hidden,
  };
}

const sha512 = (data: Buffer) => `sha512-${createHash("sha512").update(data).digest("base64")}`;

/** The package's tarball through the ordinary npm client, cached in `cacheDir`, integrity checked. */
export async function tarball(task: TaskMeta, cacheDir: string): Promise<string> {
  await mkdir(cacheDir, { recursive: true });
  const file = path.join(cacheDir, `${task.package.replace(/^@/, "").replace("/", "-")}-${task.version}.tgz`);
  if (!existsSync(file)) {
    const tmp = await mkdtemp(path.join(cacheDir, ".pack-"));
    try {
      const { stdout } = await run("npm", ["pack", `${task.package}@${task.version}`, "--pack-destination", tmp, "--json", "--silent"], { timeout: 120_000 });
      const packed = (JSON.parse(stdout) as Array<{ filename: string }>)[0]!.filename;
      await rename(path.join(tmp, path.basename(packed)), file);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }
  const got = sha512(await readFile(file));
  if (got !== task.integrity) throw new Error(`task ${task.id}: ${task.package}@${task.version} tarball integrity ${got} is not the task's ${task.integrity}`);
  return file;
}

// Our own git runs, not a player's: no user or system config (templates, hooks, signing) shapes the start.
const GIT_ENV = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "crewbot bench",
  GIT_AUTHOR_EMAIL: "bench@crewbot.invalid",
  GIT_COMMITTER_NAME: "crewbot bench",
  GIT_COMMITTER_EMAIL: "bench@crewbot.invalid",
  GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
};
export const git = (cwd: string, ...args: string[]) =>
  run("git", ["-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null", ...args], { cwd, env: GIT_ENV, maxBuffer: 64 * 1024 * 1024 }).then((r) => r.stdout);

export interface Materialised {
  /** The task's start: a git repository with one commit, the package with the bug in. */
  start: string;
  /** The reference change as a unified diff against the start (the break patch reversed). */
  reference: string;
  /** The files the reference change touches, as they are after it (for scripted players). */
  fixedFiles: Map<string, string>;
}

/** Unpacks the tarball into `into` (must not exist), applies the break and commits it as the only commit. */
export async function materialise(task: Task, cacheDir: string, into: string): Promise<Materialised> {
  const tgz = await tarball(task, cacheDir);
  await mkdir(into, { recursive: true });
  await run("tar", ["xzf", tgz, "-C", into, "--strip-components=1", "--no-same-owner"]);
  // The repository first, so `git apply` works relative to it even when the temp dir is inside another one.
  await git(into, "init", "-q", "-b", "main");
  const patchFile = path.join(task.dir, "break.patch");
  const touched = (await git(into, "apply", "--numstat", patchFile))
    .trim()
    .split("\n")
    .map((line) => line.split("\t")[2]!);
  const fixedFiles = new Map<string, string>();
  for (const f of touched) {
    // The scripted oracle restores files with `write`: a break may change or delete files, never add one.
    if (!existsSync(path.join(into, f))) throw new Error(`task ${task.id}: break.patch adds ${f}; a break may only change or delete files`);
    fixedFiles.set(f, await readFile(path.join(into, f), "utf8"));
  }
  await git(into, "apply", "--whitespace=nowarn", patchFile);
  // Forced: a .gitignore shipped in the tarball must not keep files out of crewbot's worktree (made from HEAD).
  await git(into, "add", "-A", "--force");
  await git(into, "commit", "-q", "-m", `${task.package}@${task.version}`);
  return { start: into, reference: await reverseDiff(into, fixedFiles), fixedFiles };
}

/** The diff from the start to the fixed files, computed in a throwaway copy. */
async function reverseDiff(start: string, fixedFiles: Map<string, string>): Promise<string> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), "crewbot-bench-ref-"));
  try {
    await cp(start, tmp, { recursive: true });
    for (const [f, content] of fixedFiles) await writeFile(path.join(tmp, f), content);
    return await git(tmp, "diff", "--no-color", "--no-ext-diff", "HEAD");
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** A fresh copy of the task's start (with its one-commit history) for one player. */
export async function freshCopy(start: string, into: string): Promise<string> {
  await cp(start, into, { recursive: true });
  return realpath(into);
}

let sandboxInfo: SandboxInfo | undefined;
/** The sandbox grading, setup and the baseline's bash run in (set once by the runner). */
export function useSandbox(info: SandboxInfo): void {
  sandboxInfo = info;
}

export interface CommandOutcome {
  exitCode: number | null;
  output: string;
  timedOut: boolean;
  error?: string;
}

/** A command inside crewbot's sandbox (network off), rooted at `root`. */
export async function sandboxed(root: string, command: string, opts: { write: boolean; timeoutMs?: number }): Promise<CommandOutcome> {
  if (!sandboxInfo) throw new Error("bench: useSandbox() was not called");
  const home = await mkdtemp(path.join(os.tmpdir(), "crewbot-bench-home-"));
  let output = "";
  try {
    const res = await runCommand(
      { root, mode: opts.write ? "write" : "read-only", network: false, scratchDir: home, artifactsDir: home, sandbox: sandboxInfo, envAllowlist: {} },
      command,
      { timeoutMs: opts.timeoutMs ?? 120_000, onData: (c) => (output += c.toString("utf8")) },
    );
    return { exitCode: res.exitCode, output, timedOut: res.timedOut, error: res.spawnError ?? res.limit };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

function mustPass(res: CommandOutcome, what: string): void {
  if (res.exitCode !== 0) throw new Error(`${what} failed (exit ${res.exitCode}${res.error ? `, ${res.error}` : ""}): ${res.output.slice(-2000)}`);
}

export interface Grade {
  resolved: boolean;
  output: string;
}

/**
 * Runs the hidden tests on a player's result: a grading copy of the tree (without .git) gets the
 * tests only now, so no player ever had them in its checkout; `node --test` runs in the sandbox.
 */
export async function grade(task: Task, tree: string): Promise<Grade> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `crewbot-bench-grade-${task.id}-`));
  try {
    await cp(tree, dir, { recursive: true, filter: (src) => path.basename(src) !== ".git" });
    await mkdir(path.join(dir, HIDDEN_DIR));
    for (const [name, source] of task.hidden) await writeFile(path.join(dir, HIDDEN_DIR, name), source);
    if (task.setup.trim() !== "") mustPass(await sandboxed(await realpath(dir), task.setup, { write: true }), `task ${task.id}: setup "${task.setup}"`);
    const res = await sandboxed(await realpath(dir), `node --test ${HIDDEN_DIR}/*.test.mjs 2>&1`, { write: true, timeoutMs: 120_000 });
    return { resolved: res.exitCode === 0, output: res.output.slice(-4000) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Applies a unified diff (a player's changes) to a checkout. */
export async function applyDiff(checkout: string, diff: string): Promise<void> {
  if (diff.trim() === "") return;
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), "crewbot-bench-diff-")), "changes.patch");
  await writeFile(file, diff);
  try {
    await git(checkout, "apply", "--whitespace=nowarn", "--binary", file);
  } finally {
    await rm(path.dirname(file), { recursive: true, force: true });
  }
}
