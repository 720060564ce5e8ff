import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { SAFE_PATH } from "./env.js";

export interface RunOptions {
  cwd: string;
  /** The complete environment: nothing is inherited from this process. */
  env: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
  onData?: (chunk: Buffer, stream: "stdout" | "stderr") => void;
}

export interface RunResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  /** The process could not be started (e.g. ENOENT). */
  spawnError?: string;
}

/** How long to wait for pipes after the main process exited and its group was killed. */
const PIPE_GRACE_MS = 2000;

/** SIGKILL to the whole process group: children and backgrounded jobs go too, not only the shell. */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // ESRCH: the group is already gone.
  }
}

/**
 * Runs argv in its own process group (detached = setsid), stdin from /dev/null, and
 * resolves when it is over. On timeout or abort the group is SIGKILLed; when the main
 * process exits, leftovers in its group are killed too, so nothing outlives the call
 * and a backgrounded job holding the pipes open cannot hang it.
 */
export function runProcess(argv: readonly string[], opts: RunOptions): Promise<RunResult> {
  const [file, ...args] = argv;
  if (file === undefined) throw new Error("runProcess: empty argv");
  const base = { exitCode: null, signal: null, timedOut: false, aborted: false };
  if (opts.signal?.aborted) return Promise.resolve({ ...base, aborted: true });

  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(file, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    } catch (err) {
      resolve({ ...base, spawnError: (err as Error).message });
      return;
    }
    let timedOut = false;
    let aborted = false;
    let settled = false;
    let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let grace: NodeJS.Timeout | undefined;

    const timer =
      opts.timeoutMs !== undefined
        ? setTimeout(() => {
            timedOut = true;
            killGroup(child);
          }, opts.timeoutMs)
        : undefined;
    const onAbort = (): void => {
      aborted = true;
      killGroup(child);
    };
    opts.signal?.addEventListener("abort", onAbort, { once: true });

    const finish = (extra: Partial<RunResult> = {}): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      opts.signal?.removeEventListener("abort", onAbort);
      resolve({ exitCode: exited?.code ?? null, signal: exited?.signal ?? null, timedOut, aborted, ...extra });
    };

    child.stdout?.on("data", (c: Buffer) => opts.onData?.(c, "stdout"));
    child.stderr?.on("data", (c: Buffer) => opts.onData?.(c, "stderr"));
    child.on("error", (err) => finish({ spawnError: err.message }));
    child.on("exit", (code, signal) => {
      exited = { code, signal };
      killGroup(child);
      grace = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish();
      }, PIPE_GRACE_MS);
    });
    child.on("close", (code, signal) => {
      exited ??= { code, signal };
      finish();
    });
  });
}

const found = new Map<string, string | undefined>();

/** Looks a program up on the fixed safe PATH first, then on this process's PATH, then in `extra`; cached. */
export function findExecutable(name: string, extra: readonly string[] = []): string | undefined {
  const key = [name, ...extra].join("\0");
  if (found.has(key)) return found.get(key);
  const dirs = [...SAFE_PATH.split(":"), ...(process.env.PATH ?? "").split(":"), ...extra].filter((d) => d !== "");
  let hit: string | undefined;
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) {
        hit = candidate;
        break;
      }
    } catch {
      // not here
    }
  }
  found.set(key, hit);
  return hit;
}
