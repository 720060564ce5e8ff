/**
 * The repository's own `setup` and `check` commands (config `implement.setup` / `implement.check`):
 * run in the checkout like the worker's bash — in the sandbox when the host has one, with an
 * environment built from scratch — each time-limited, its whole output kept as a job artifact.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { OutputCollector } from "../tools/output.js";
import { runCommand, type CommandRun } from "../tools/run-command.js";
import type { SandboxInfo } from "../tools/types.js";
import { git } from "./git.js";

export type CommandPhase = "setup" | "check";

export interface CommandResult {
  phase: CommandPhase;
  command: string;
  ok: boolean;
  /** `exit code 0`, `timed out after 600 s`, `cancelled`, … */
  status: string;
  /** The end of the output (stdout and stderr together), for the comment and the PR body. */
  tail: string;
  durationMs: number;
  /** The whole output (up to the artifact cap), in the job's artifacts. */
  artifact: string;
}

export interface RunCommandsOptions {
  phase: CommandPhase;
  root: string;
  scratchDir: string;
  artifactsDir: string;
  sandbox: SandboxInfo;
  network: boolean;
  timeoutMs: number;
  signal: AbortSignal;
  /** Called before each command, for the progress comment. */
  onStart?: (command: string, index: number) => void;
}

/** What the comment shows of a command's output: its last lines. */
export const TAIL_CHARS = 3000;
const TAIL_LINES = 40;
/** Output kept in memory per command; more goes to the artifact file only. */
const HELD_BYTES = 64 * 1024;

function describeStatus(res: CommandRun, timeoutMs: number): string {
  if (res.spawnError !== undefined) return `could not start: ${res.spawnError}`;
  if (res.limit !== undefined) return res.limit;
  if (res.timedOut) return `timed out after ${Math.round(timeoutMs / 1000)} s`;
  if (res.aborted) return "cancelled";
  if (res.signal !== null) return `killed by ${res.signal}`;
  return `exit code ${res.exitCode ?? "unknown"}`;
}

/** The last lines of an output, at most TAIL_CHARS characters. */
export function outputTail(text: string): string {
  const lines = text.replace(/\s+$/, "").split("\n").slice(-TAIL_LINES).join("\n");
  return lines.length > TAIL_CHARS ? `…${lines.slice(-(TAIL_CHARS - 1))}` : lines;
}

/**
 * Runs the commands in order; stops after the first that fails (a failed `npm ci` makes the
 * next command meaningless, a failed check is the verdict). Setup has the network; checks
 * have it only when the config turns it on for the sandbox.
 */
export async function runRepoCommands(commands: readonly string[], options: RunCommandsOptions): Promise<CommandResult[]> {
  const results: CommandResult[] = [];
  const { root, scratchDir, artifactsDir, sandbox, network } = options;
  const ctx = { root, scratchDir, artifactsDir, sandbox, network, mode: "write" as const, envAllowlist: {} };
  for (const [index, command] of commands.entries()) {
    options.onStart?.(command, index);
    const collector = new OutputCollector(options.artifactsDir, `${options.phase}-${index + 1}`, HELD_BYTES);
    const started = Date.now();
    const res = await runCommand(ctx, command, {
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      onData: (chunk) => collector.push(chunk),
    });
    const out = await collector.finish();
    // A short output never made the collector open a file: keep it as an artifact all the same.
    const artifact = out.artifact ?? path.join(options.artifactsDir, `${options.phase}-${index + 1}.log`);
    if (out.artifact === undefined) await writeFile(artifact, out.tail, { mode: 0o600 });
    const ok = res.exitCode === 0 && !res.timedOut && !res.aborted && res.spawnError === undefined && res.limit === undefined;
    results.push({ phase: options.phase, command, ok, status: describeStatus(res, options.timeoutMs), tail: outputTail(out.tail), durationMs: Date.now() - started, artifact });
    if (!ok) break;
  }
  return results;
}

/**
 * After setup: what it left in the checkout must not end up in the worker's commits. New
 * untracked files (node_modules, build output) are ignored through `.git/info/exclude`, which
 * only this checkout reads; tracked files it changed are put back. Returns those put back.
 */
export async function keepSetupOutOfCommits(root: string): Promise<string[]> {
  const opts = { cwd: root, workspace: true };
  const untracked = (await git(["ls-files", "--others", "--exclude-standard", "--directory", "--no-empty-directory", "-z"], opts))
    .split("\0")
    .filter(Boolean);
  if (untracked.length > 0) {
    const exclude = path.resolve(root, (await git(["rev-parse", "--git-path", "info/exclude"], opts)).trim());
    await mkdir(path.dirname(exclude), { recursive: true }); // clones made without templates have no info/
    // Anchored to the root, glob characters escaped: these exact paths, nothing else.
    const lines = untracked.map((file) => `/${file.replace(/[\\*?[\]!# ]/g, (ch) => `\\${ch}`)}`);
    await writeFile(exclude, `\n# left by crewbot's setup commands\n${lines.join("\n")}\n`, { flag: "a" });
  }
  // --ignore-submodules: a repository setup planted inside the checkout is never looked into (its
  // config could name an fsmonitor or a filter that git would run here, outside the sandbox).
  const changed = (await git(["diff", "--name-only", "--no-renames", "--ignore-submodules=all", "-z", "HEAD", "--"], opts)).split("\0").filter(Boolean);
  if (changed.length > 0) await git(["checkout", "--quiet", "HEAD", "--", ...changed.map((file) => `:(literal)${file}`)], opts);
  return changed;
}
