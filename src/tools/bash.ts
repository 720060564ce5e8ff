import { mkdir } from "node:fs/promises";
import os from "node:os";
import { z } from "zod";
import { OUTPUT_CAP_BYTES, OutputCollector, formatBytes, type CollectedOutput } from "./output.js";
import { DISK_WRITE_MAX_BYTES, MAX_FILE_BYTES, MAX_PROCS, OUTPUT_KILL_BYTES } from "./limits.js";
import { runCommand, type CommandRun } from "./run-command.js";
import { withToolErrors } from "./errors.js";
import { ToolError, type Mode, type SandboxInfo, type Tool } from "./types.js";

export const BASH_DEFAULT_TIMEOUT_S = 120;
export const BASH_MIN_TIMEOUT_S = 1;
export const BASH_MAX_TIMEOUT_S = 600;

const schema = z
  .object({
    command: z.string().min(1).describe("Bash command(s) to run, in the checkout root."),
    timeout: z
      .number()
      .optional()
      .describe(`Timeout in seconds, ${BASH_MIN_TIMEOUT_S}-${BASH_MAX_TIMEOUT_S} (default ${BASH_DEFAULT_TIMEOUT_S}). The whole process group is killed when it expires.`),
  })
  .strict();

type BashInput = z.infer<typeof schema>;

export function clampTimeout(seconds: number | undefined): number {
  if (seconds === undefined || !Number.isFinite(seconds)) return BASH_DEFAULT_TIMEOUT_S;
  return Math.min(BASH_MAX_TIMEOUT_S, Math.max(BASH_MIN_TIMEOUT_S, seconds));
}

/** What the model is told about where its commands run; it differs by mode and host. */
export function bashDescription(mode: Mode, sandbox: SandboxInfo): string {
  const base =
    "Run a bash command in the checkout root (stdin is empty; stdout and stderr are combined). " +
    `Only the last ${formatBytes(OUTPUT_CAP_BYTES)} of output is shown; a longer output is saved to a file you can read. ` +
    "Background processes are killed when the command ends. The environment is minimal (no credentials). " +
    `Limits: files up to ${formatBytes(MAX_FILE_BYTES)} each, ${formatBytes(DISK_WRITE_MAX_BYTES)} written to disk per command, ` +
    `${formatBytes(OUTPUT_KILL_BYTES)} of output, ${MAX_PROCS} processes/threads; a command over one is stopped.`;
  if (!sandbox.available) return `${base} Runs without an OS sandbox.`;
  const net = "the network is off unless configured (then only the outside world: no host, private or link-local address)";
  if (mode === "read-only") {
    return `${base} Runs in a read-only sandbox: nothing in the checkout can be changed (git log/diff/show work), /tmp is private and writable, ${net}.`;
  }
  return `${base} Runs in a sandbox: the checkout is writable except .git (git status/diff/log work; do not stage or commit, crewbot commits for you), /tmp is private, nothing outside the checkout is writable, ${net}.`;
}

function statusLine(res: CommandRun, timeoutS: number): string {
  if (res.spawnError !== undefined) return `[could not start: ${res.spawnError}]`;
  if (res.limit !== undefined) return `[${res.limit}]`;
  if (res.timedOut) return `[killed: timed out after ${timeoutS} s]`;
  if (res.aborted) return `[killed: cancelled]`;
  if (res.signal !== null) return `[killed by signal ${res.signal}]`;
  const code = res.exitCode;
  if (code === null) return "[exit code unknown]";
  // Inside bwrap a signal death shows up as 128+N; name the signal so the model need not guess.
  const sig = code > 128 ? Object.entries(os.constants.signals).find(([, n]) => n === code - 128)?.[0] : undefined;
  return `[exit code ${code}${sig !== undefined ? ` (128+${code - 128}: ${sig})` : ""}]`;
}

function truncationNote(out: CollectedOutput): string | undefined {
  if (out.totalBytes <= OUTPUT_CAP_BYTES) return undefined;
  const head = `[Output was ${formatBytes(out.totalBytes)}; showing the last ${formatBytes(OUTPUT_CAP_BYTES)}.`;
  if (out.artifact === undefined) return `${head} The full output could not be saved: ${out.artifactError ?? "unknown error"}.]`;
  const cut = out.artifactTruncated === true ? " (its first part only: the output was too large to keep)" : "";
  return `${head} Full output saved to ${out.artifact}${cut}; read it with the read tool (offset/limit) or grep.]`;
}

export function createBashTool(mode: Mode, sandbox: SandboxInfo): Tool<BashInput> {
  return {
    name: "bash",
    description: bashDescription(mode, sandbox),
    schema,
    // Not read-only: even bash in read-only mode (read-only by the OS) must not run alongside writes.
    readOnly: false,
    run: withToolErrors(async (input, ctx) => {
      if (ctx.signal.aborted) throw new ToolError("Cancelled before the command started.");
      const sandboxed = ctx.sandbox.available;
      // Defence in depth: toolsFor never offers this, but read-only mode must never run unconfined.
      if (!sandboxed && ctx.mode !== "write") throw new ToolError("bash is not available in read-only mode: no OS sandbox on this host.");
      if (!sandboxed && ctx.sandbox.allowUnsandboxed !== true) throw new ToolError("bash is not available: no OS sandbox on this host.");
      await mkdir(ctx.scratchDir, { recursive: true });
      await mkdir(ctx.artifactsDir, { recursive: true });
      const timeoutS = clampTimeout(input.timeout);
      const collector = new OutputCollector(ctx.artifactsDir, "bash");
      const res = await runCommand(ctx, input.command, {
        timeoutMs: timeoutS * 1000,
        signal: ctx.signal,
        onData: (chunk) => collector.push(chunk),
      });
      const out = await collector.finish();
      let tail = out.tail;
      // A cut tail starts mid-line; drop that fragment when a line break is near.
      const nl = out.totalBytes > OUTPUT_CAP_BYTES ? tail.indexOf("\n") : -1;
      if (nl !== -1 && nl < 4096) tail = tail.slice(nl + 1);
      const parts = [tail.length > 0 ? tail.replace(/\n$/, "") : "(no output)"];
      const note = truncationNote(out);
      if (note !== undefined) parts.push(note);
      parts.push(statusLine(res, timeoutS));
      const ok = res.exitCode === 0 && !res.timedOut && !res.aborted && res.spawnError === undefined && res.limit === undefined;
      return { output: parts.join("\n"), isError: !ok };
    }),
  };
}
