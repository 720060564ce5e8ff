/**
 * The one way a model's or a repository's shell command is run (bash tool, setup, check): in the
 * sandbox (without one only when the operator opted in), network on only through the sandbox's
 * egress-only namespace, with an environment built from scratch, under the resource limits of
 * limits.ts, and with nothing of it left running when this returns.
 */
import { buildEnv } from "./env.js";
import { formatBytes } from "./output.js";
import { DEFAULT_LIMITS, PidsCgroup, limitedShellArgv, type Limits } from "./limits.js";
import { watchDiskWrites } from "./disk-quota.js";
import { sandboxedArgv, shellPath, type SandboxContext } from "./sandbox.js";
import { EgressNetwork } from "./sandbox-network.js";
import { commandsRefusal } from "./sandbox-policy.js";
import { runProcess, type RunResult } from "./spawn.js";
import type { ToolContext } from "./types.js";

export type CommandContext = SandboxContext & Pick<ToolContext, "sandbox" | "envAllowlist">;

export interface CommandOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  onData?: (chunk: Buffer) => void;
  /** Defaults to DEFAULT_LIMITS; tests lower them to trip them quickly. */
  limits?: Limits;
}

export interface CommandRun extends RunResult {
  /** Set when a resource limit stopped the command (or it broke one): a sentence for the status line. */
  limit?: string;
}

export async function runCommand(ctx: CommandContext, command: string, opts: CommandOptions): Promise<CommandRun> {
  // Fail closed, whoever the caller: no sandbox (unless the operator opted in), or network on
  // without the egress-only namespace, runs nothing.
  const refusal = commandsRefusal(ctx.sandbox, { network: ctx.network });
  if (refusal !== undefined) return { exitCode: null, signal: null, timedOut: false, aborted: false, spawnError: refusal.reason };
  const net = ctx.network && ctx.sandbox.available ? await EgressNetwork.open({ allow: ctx.sandbox.allowCidrs ?? [] }).catch((e: Error) => e) : undefined;
  if (net instanceof Error) return { exitCode: null, signal: null, timedOut: false, aborted: false, spawnError: net.message };
  try {
    return await runLimited(ctx, command, opts, net);
  } finally {
    await net?.close();
  }
}

async function runLimited(ctx: CommandContext, command: string, opts: CommandOptions, net: EgressNetwork | undefined): Promise<CommandRun> {
  const limits = opts.limits ?? DEFAULT_LIMITS;
  const sandboxed = ctx.sandbox.available;
  // RLIMIT_NPROC only inside the sandbox: there it counts the sandbox's own user namespace; outside
  // it would count every process of this uid, the app's included.
  const inner = limitedShellArgv(shellPath(), command, limits, sandboxed);
  let argv = sandboxed ? sandboxedArgv(ctx, inner, ctx.sandbox.program, net) : inner;
  if (net !== undefined) argv = net.enter(argv);
  const cgroup = PidsCgroup.create(limits.maxProcs);
  if (cgroup !== undefined) argv = cgroup.wrap(argv);

  let limit: string | undefined;
  const stop = new AbortController();
  const stopFor = (why: string): void => {
    limit ??= why;
    stop.abort();
  };
  const onAbort = (): void => stop.abort();
  if (opts.signal?.aborted === true) stop.abort();
  opts.signal?.addEventListener("abort", onAbort, { once: true });

  const quota = await watchDiskWrites([ctx.root, ctx.scratchDir], limits.diskWriteMaxBytes, () => stopFor(`killed: wrote more than ${formatBytes(limits.diskWriteMaxBytes)} to disk`));

  let outBytes = 0;
  let res: RunResult;
  try {
    res = await runProcess(argv, {
      cwd: ctx.root,
      env: buildEnv(ctx),
      timeoutMs: opts.timeoutMs,
      signal: stop.signal,
      onData: (chunk) => {
        if (limit !== undefined) return;
        outBytes += chunk.length;
        if (outBytes > limits.outputKillBytes) stopFor(`killed: more than ${formatBytes(limits.outputKillBytes)} of output`);
        else opts.onData?.(chunk);
      },
    });
  } finally {
    quota.stop();
    opts.signal?.removeEventListener("abort", onAbort);
    await cgroup?.destroy();
  }
  // A burst (fallocate, a fast loop) can beat the poll: still say so, the model must clean up.
  const grown = limit === undefined ? await quota.check() : undefined;
  if (grown !== undefined) {
    limit = `the command grew the disk by ${formatBytes(grown)}, over the ${formatBytes(limits.diskWriteMaxBytes)} limit: delete what is not needed`;
  }
  const run: CommandRun = { ...res, aborted: opts.signal?.aborted === true };
  if (limit !== undefined) run.limit = limit;
  return run;
}
