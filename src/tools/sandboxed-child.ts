/**
 * A long-running program in the sandbox, its stdin and stdout piped to crewbot: a repository's
 * stdio MCP server (mcp/stdio.ts). The same fences as every command (run-command.ts): refused
 * without a sandbox unless the operator opted in, bubblewrap with the job's mode (a read-only
 * checkout unless it writes), network only through the egress-only namespace, an environment
 * built from scratch, the rlimits and a pids cgroup; and `close()` leaves nothing of it running.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { buildEnv } from "./env.js";
import { DEFAULT_LIMITS, PidsCgroup, limitedArgv, type Limits } from "./limits.js";
import { watchDiskWrites } from "./disk-quota.js";
import { formatBytes } from "./output.js";
import type { CommandContext } from "./run-command.js";
import { sandboxedArgv, shellPath } from "./sandbox.js";
import { EgressNetwork } from "./sandbox-network.js";
import { commandsRefusal } from "./sandbox-policy.js";

export interface SandboxedChild {
  process: ChildProcessByStdio<Writable, Readable, Readable>;
  /** Resolves once the program runs, rejects when it could not be started. */
  started: Promise<void>;
  /** Settles when the program has exited (or could not start). */
  exited: Promise<void>;
  /** Kills its whole process group and cgroup, ends its network namespace; safe to call twice. */
  close(): Promise<void>;
}

export interface ChildOptions {
  /** Defaults to DEFAULT_LIMITS; tests lower them to trip them quickly. */
  limits?: Limits;
  /** A limit the program broke (it wrote more than its disk quota): said once, and the program is ended. */
  onLimit?: (why: string) => void;
}

/**
 * Starts `argv` (no shell reads it) in the checkout; throws, saying why, where no command may run.
 * What it writes to the checkout and its HOME is watched like a command's: past the quota it ends.
 */
export async function spawnSandboxed(ctx: CommandContext, argv: readonly string[], options: ChildOptions = {}): Promise<SandboxedChild> {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const refusal = commandsRefusal(ctx.sandbox, { network: ctx.network });
  if (refusal !== undefined) throw new Error(refusal.reason);
  const sandboxed = ctx.sandbox.available;
  const net = ctx.network && sandboxed ? await EgressNetwork.open({ allow: ctx.sandbox.allowCidrs ?? [] }) : undefined;
  const inner = limitedArgv(shellPath(), argv, limits, sandboxed);
  let full = sandboxed ? sandboxedArgv(ctx, inner, ctx.sandbox.program, net) : inner;
  if (net !== undefined) full = net.enter(full);
  const cgroup = PidsCgroup.create(limits.maxProcs);
  if (cgroup !== undefined) full = cgroup.wrap(full);
  const [file, ...args] = full as [string, ...string[]];
  let child: ChildProcessByStdio<Writable, Readable, Readable>;
  try {
    // detached: a process group of its own, so one signal ends every process it started.
    child = spawn(file, args, { cwd: ctx.root, env: buildEnv(ctx), detached: true, stdio: ["pipe", "pipe", "pipe"] });
  } catch (error) {
    await cgroup?.destroy();
    await net?.close();
    throw error;
  }
  // Listened to at once: 'spawn' and 'error' come on the next tick.
  const started = new Promise<void>((resolve, reject) => {
    child.once("spawn", () => resolve());
    child.once("error", reject);
  });
  started.catch(() => undefined);
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.once("error", () => resolve());
  });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      quota.stop();
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // ESRCH: the group is gone already
        }
      }
      await exited;
      await cgroup?.destroy();
      await net?.close();
    })());
  const quota = await watchDiskWrites([ctx.root, ctx.scratchDir], limits.diskWriteMaxBytes, (grown) => {
    options.onLimit?.(`it wrote ${formatBytes(grown)} to disk, over the ${formatBytes(limits.diskWriteMaxBytes)} limit: it was ended`);
    void close();
  });
  void exited.then(() => quota.stop());
  return { process: child, started, exited, close };
}
