/**
 * Resource limits for every command crewbot runs for a model or a repository (bash, setup,
 * check): applied in one place, by runCommand (run-command.ts), whatever the caller.
 *
 * - processes: RLIMIT_NPROC inside the sandbox (counted per user namespace, so it bounds the
 *   sandbox's own processes and threads; the kernel ignores it for uid 0), and, when this
 *   process may create one, a pids cgroup per command (the only bound that holds for root);
 * - file size: RLIMIT_FSIZE, one file cannot outgrow MAX_FILE_BYTES (SIGXFSZ / EFBIG);
 * - disk: the filesystems of the checkout and the scratch HOME are watched while the command
 *   runs; growing them by more than DISK_WRITE_MAX_BYTES kills it;
 * - the sandbox's private /tmp is a tmpfs (RAM) capped at TMP_MAX_BYTES when bwrap can;
 * - output: more than OUTPUT_KILL_BYTES of output kills the command (no one reads it);
 * - no core dumps.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { lstat, readdir, stat, statfs } from "node:fs/promises";
import path from "node:path";

export const MAX_PROCS = 1024;
export const MAX_FILE_BYTES = 2 * 1024 ** 3;
export const DISK_WRITE_MAX_BYTES = 4 * 1024 ** 3;
export const TMP_MAX_BYTES = 1024 ** 3;
export const OUTPUT_KILL_BYTES = 512 * 1024 * 1024;

/** The limits one command runs under; tests may lower them, production uses the defaults. */
export interface Limits {
  maxProcs: number;
  maxFileBytes: number;
  diskWriteMaxBytes: number;
  outputKillBytes: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxProcs: MAX_PROCS,
  maxFileBytes: MAX_FILE_BYTES,
  diskWriteMaxBytes: DISK_WRITE_MAX_BYTES,
  outputKillBytes: OUTPUT_KILL_BYTES,
};

/**
 * argv that sets the rlimits (hard and soft: the command cannot raise them again) and then
 * execs `shell -c command`, so the command string itself is passed on untouched.
 * bash counts -f in KiB and names the process limit -u; dash counts 512-byte blocks and uses -p.
 */
export function limitedShellArgv(shell: string, command: string, limits: Limits, withProcs: boolean): string[] {
  return [shell, "-c", `${ulimits(shell, limits, withProcs)} || exit 126; exec "$0" -c "$1"`, shell, command];
}

/** The same limits, then exec of `argv` as it is (no shell reads it): a long-running program such as an MCP server. */
export function limitedArgv(shell: string, argv: readonly string[], limits: Limits, withProcs: boolean): string[] {
  return [shell, "-c", `${ulimits(shell, limits, withProcs)} || exit 126; exec "$@"`, shell, ...argv];
}

function ulimits(shell: string, limits: Limits, withProcs: boolean): string {
  const bash = path.basename(shell) === "bash";
  const fsize = bash ? Math.floor(limits.maxFileBytes / 1024) : Math.floor(limits.maxFileBytes / 512);
  const procs = withProcs ? ` -${bash ? "u" : "p"} ${limits.maxProcs}` : "";
  // Without -H/-S both shells set the soft and the hard limit together.
  return `ulimit -f ${fsize} -c 0${procs}`;
}

/** The pids cgroup hierarchy this process can create children in, found once; null when none. */
let pidsBase: string | null | undefined;

function findPidsBase(): string | null {
  try {
    if (process.getuid?.() !== 0) return null; // only root may write there without delegation
    const own = readFileSync("/proc/self/cgroup", "utf8").split("\n");
    for (const line of readFileSync("/proc/self/mountinfo", "utf8").split("\n")) {
      const fields = line.split(" ");
      const sep = fields.indexOf("-");
      const mount = fields[4];
      if (sep === -1 || mount === undefined) continue;
      const type = fields[sep + 1];
      const opts = (fields[sep + 3] ?? "").split(",");
      let rel: string | undefined;
      if (type === "cgroup" && opts.includes("pids")) rel = own.find((l) => /^\d+:([^:]*,)?pids(,[^:]*)?:/.test(l))?.split(":")[2];
      else if (type === "cgroup2") rel = own.find((l) => l.startsWith("0::"))?.slice(3);
      if (rel === undefined) continue;
      const dir = path.join(mount, rel);
      if (type === "cgroup2" && !readFileSync(path.join(dir, "cgroup.subtree_control"), "utf8").includes("pids")) continue;
      return dir;
    }
  } catch {
    // no cgroup filesystem we can read
  }
  return null;
}

/** A pids cgroup for one command: every process of the command, however it detaches, is in it. */
export class PidsCgroup {
  private constructor(readonly dir: string) {}

  /** A fresh cgroup with pids.max set, or undefined when this host does not allow it. */
  static create(maxProcs: number): PidsCgroup | undefined {
    pidsBase ??= findPidsBase();
    if (pidsBase === null) return undefined;
    const dir = path.join(pidsBase, `crewbot-${randomBytes(6).toString("hex")}`);
    try {
      mkdirSync(dir);
      writeFileSync(path.join(dir, "pids.max"), String(maxProcs));
      return new PidsCgroup(dir);
    } catch {
      try {
        rmdirSync(dir);
      } catch {
        // never made
      }
      pidsBase = null; // not writable after all: do not try again for every command
      return undefined;
    }
  }

  /** argv that moves itself into the cgroup before anything else runs, then execs argv. */
  wrap(argv: readonly string[]): string[] {
    return ["/bin/sh", "-c", 'echo $$ > "$0/cgroup.procs" || exit 126; exec "$@"', this.dir, ...argv];
  }

  pids(): number[] {
    try {
      return readFileSync(path.join(this.dir, "cgroup.procs"), "utf8").split("\n").filter(Boolean).map(Number);
    } catch {
      return [];
    }
  }

  /** SIGKILLs every process left in the cgroup, then removes it (retrying while they die). */
  async destroy(): Promise<void> {
    const kill = path.join(this.dir, "cgroup.kill");
    for (let i = 0; i < 100; i++) {
      const left = this.pids();
      if (left.length === 0) {
        try {
          rmdirSync(this.dir);
          return;
        } catch {
          // a process still being reaped
        }
      }
      if (existsSync(kill)) {
        try {
          writeFileSync(kill, "1");
        } catch {
          // fall back to signals
        }
      }
      for (const pid of left) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // gone
        }
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

/** Bytes used on the filesystems holding `dirs` (each filesystem counted once). */
export async function diskUsed(dirs: readonly string[]): Promise<number> {
  const seen = new Set<number>();
  let used = 0;
  for (const dir of dirs) {
    try {
      const { dev } = await stat(dir);
      if (seen.has(dev)) continue;
      seen.add(dev);
      const s = await statfs(dir);
      used += (s.blocks - s.bfree) * s.bsize;
    } catch {
      // gone: nothing to measure
    }
  }
  return used;
}

/** Bytes allocated to the files under `dirs` (du: blocks, symlinks not followed). Slow on big trees: used to confirm. */
export async function treeBytes(dirs: readonly string[]): Promise<number> {
  let total = 0;
  const stack = [...dirs];
  for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) stack.push(p);
      else total += ((await lstat(p).catch(() => undefined))?.blocks ?? 0) * 512;
    }
  }
  return total;
}
