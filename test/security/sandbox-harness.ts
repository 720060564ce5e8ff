/**
 * Shared set-up for the sandbox attack suites (test/security/sandbox-*.test.ts): a data dir laid
 * out like the app's, OUTSIDE the host /tmp (the sandbox's /tmp is a private tmpfs, so a path under
 * the host /tmp would only ever land there and prove nothing), and one `attack` runner that sends a
 * command through each real entry point: the bash tool in plan and write mode, and runRepoCommands.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, readdir, readlink, realpath, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { createBashTool } from "../../src/tools/bash.js";
import { detectSandbox } from "../../src/tools/sandbox.js";
import type { Mode, ToolContext } from "../../src/tools/types.js";
import { runRepoCommands } from "../../src/workspace/repo-commands.js";

export const sandbox = await detectSandbox();
export const skipNote = sandbox.available ? "" : ` — SKIPPED: ${sandbox.reason}`;

export type Via = "bash-plan" | "bash-write" | "repo-commands";
export const ALL_VIAS: Via[] = ["bash-plan", "bash-write", "repo-commands"];
export const WRITE_VIAS: Via[] = ["bash-write", "repo-commands"];

export const SECRETS = {
  GITHUB_TOKEN: "ghs_sandboxSuiteToken0123456789",
  ANTHROPIC_API_KEY: "sk-ant-sandboxSuiteKey0123456789",
  PRIVATE_KEY: "-----BEGIN RSA PRIVATE KEY-----sandboxSuitePem",
  WEBHOOK_SECRET: "whsec-sandboxSuiteWebhook",
  // The operator's npm registry token: read by the dependency review in the app, never given to a command.
  CREWBOT_NPM_TOKEN: "npm_sandboxSuiteRegistryToken0123",
};

/**
 *   base/data/crewbot.db                 the job store
 *   base/data/jobs/1/{artifacts,scratch}  this job's dirs
 *   base/data/jobs/2/artifacts/other.log  another job's artifact
 *   base/data/workspaces/1               the checkout, a real git repo with a hook dir
 *   base/home/.gitconfig                 the host user's git config (process.env.HOME while a suite runs)
 */
export interface Host {
  base: string;
  data: string;
  root: string;
  artifacts: string;
  scratch: string;
  home: string;
  ctx(mode: Mode, extra?: Partial<ToolContext>): ToolContext;
  attack(via: Via, command: string, opts?: { timeoutS?: number; network?: boolean }): Promise<{ output: string; isError: boolean }>;
  gitState(): Promise<string>;
  cleanup(): Promise<void>;
}

export async function makeHost(): Promise<Host> {
  await mkdir("/var/tmp", { recursive: true });
  const base = await realpath(await mkdtemp("/var/tmp/crewbot-sandbox-suite-"));
  const data = path.join(base, "data");
  const root = path.join(data, "workspaces", "1");
  const artifacts = path.join(data, "jobs", "1", "artifacts");
  const scratch = path.join(data, "jobs", "1", "scratch");
  const home = path.join(base, "home");
  for (const d of [root, artifacts, scratch, home, path.join(data, "jobs", "2", "artifacts")]) await mkdir(d, { recursive: true });
  await writeFile(path.join(data, "crewbot.db"), "SQLite format 3\0 STORE-SECRET installation tokens\n", { mode: 0o600 });
  await writeFile(path.join(data, "jobs", "2", "artifacts", "other.log"), "OTHER-JOB-SECRET\n");
  await writeFile(path.join(home, ".gitconfig"), "[credential]\n\thelper = store HOST-GITCONFIG-SECRET\n");
  execFileSync("git", ["init", "-q", "-b", "main", root]);
  await writeFile(path.join(root, "README.md"), "# checkout\n");
  const git = (...args: string[]): string =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@e", ...args], { cwd: root, encoding: "utf8" });
  git("add", "-A");
  git("commit", "-q", "-m", "initial");

  const ctx = (mode: Mode, extra: Partial<ToolContext> = {}): ToolContext => ({
    root,
    mode,
    artifactsDir: artifacts,
    readRoots: [artifacts],
    scratchDir: scratch,
    signal: new AbortController().signal,
    sandbox,
    network: false,
    envAllowlist: {},
    ...extra,
  });

  const attack: Host["attack"] = async (via, command, opts = {}) => {
    const timeoutS = opts.timeoutS ?? 20;
    const network = opts.network ?? false;
    if (via === "repo-commands") {
      const [res] = await runRepoCommands([command], {
        phase: "check",
        root,
        scratchDir: scratch,
        artifactsDir: artifacts,
        sandbox,
        network,
        timeoutMs: timeoutS * 1000,
        signal: new AbortController().signal,
      });
      if (res === undefined) throw new Error("runRepoCommands returned nothing");
      // The tail is cut for the comment; the artifact holds everything the command printed.
      const full = await readFile(res.artifact, "utf8").catch(() => "");
      return { output: `${full.slice(-200_000)}\n${res.tail}\n[${res.status}]`, isError: !res.ok };
    }
    const mode: Mode = via === "bash-plan" ? "read-only" : "write";
    return createBashTool(mode, sandbox).run({ command, timeout: timeoutS }, ctx(mode, { network }));
  };

  /** Everything in .git that an attack would change: config, hooks, HEAD, refs. */
  const gitState = async (): Promise<string> => {
    const hooks = await readdir(path.join(root, ".git", "hooks"));
    return [
      await readFile(path.join(root, ".git", "config"), "utf8"),
      await readFile(path.join(root, ".git", "HEAD"), "utf8"),
      hooks.filter((h) => !h.endsWith(".sample")).join(","),
      git("rev-parse", "HEAD"),
    ].join("\n");
  };

  return {
    base,
    data,
    root,
    artifacts,
    scratch,
    home,
    ctx,
    attack,
    gitState,
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

/**
 * Processes on the host whose command line contains `tag`, or (with `cwd`) whose working directory
 * is in `cwd` (the checkout: every process of a command starts there, a bare `sleep` included).
 * Read from /proc, not `ps`.
 */
export async function hostProcesses(tag: string, cwd?: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await readdir("/proc")) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    const cmd = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    const dir = cwd === undefined ? "" : await readlink(`/proc/${pid}/cwd`).catch(() => "");
    if (cmd.includes(tag) || (cwd !== undefined && (dir === cwd || dir.startsWith(`${cwd}/`)))) found.push(`${pid}: ${cmd.replace(/\0/g, " ")}`);
  }
  return found;
}

export async function settle(cond: () => Promise<boolean>, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return cond();
}
