import { execFileSync } from "node:child_process";
import { accessSync, constants, existsSync, lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { buildEnv } from "./env.js";
import { TMP_MAX_BYTES } from "./limits.js";
import { EgressNetwork } from "./sandbox-network.js";
import { findExecutable, runProcess } from "./spawn.js";
import type { Mode, SandboxInfo, ToolContext } from "./types.js";

export type SandboxContext = Pick<ToolContext, "root" | "mode" | "network" | "scratchDir" | "artifactsDir">;

/**
 * Host system paths the sandbox may see. Deliberately not /root, /home, /work, /var, /opt
 * or the app's data dir: the app's secrets and private key live there.
 */
export const SYSTEM_PATHS = ["/usr", "/etc", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"];

/** What bwrapArgs needs to know about the host, gathered apart so bwrapArgs stays pure. */
export interface HostLayout {
  /** System paths present on the host; `symlink` is the link text when the host has a symlink (merged /usr). */
  system: Array<{ path: string; symlink?: string }>;
  /** `root/.git` when it exists and is a real directory or file (a worktree's .git file). */
  gitPath?: string;
  /** Real path of /etc/resolv.conf (it may point outside /etc, e.g. systemd-resolved): with network on, slirp's DNS is bound there. */
  resolvConf?: string;
  /** bwrap can size a tmpfs (`--size`, 0.8+): the private /tmp gets TMP_MAX_BYTES, not half the RAM. */
  tmpfsSize?: boolean;
  /** bwrap can forbid nested user namespaces (`--disable-userns`, 0.8+): no `unshare -U` inside. */
  disableUserns?: boolean;
}

type BwrapFeatures = { tmpfsSize: boolean; disableUserns: boolean };
const featuresOf = new Map<string, BwrapFeatures>();

/** What this bwrap supports, from its --help, checked once per program. */
function bwrapFeatures(bwrap: string | undefined): BwrapFeatures {
  const known = bwrap === undefined ? undefined : featuresOf.get(bwrap);
  if (known !== undefined) return known;
  let help = "";
  try {
    if (bwrap !== undefined) help = execFileSync(bwrap, ["--help"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 5000 });
  } catch (err) {
    help = String((err as { stdout?: unknown }).stdout ?? "");
  }
  const found = { tmpfsSize: help.includes("--size"), disableUserns: help.includes("--disable-userns") };
  if (bwrap !== undefined) featuresOf.set(bwrap, found);
  return found;
}

/**
 * The bubblewrap program: `CREWBOT_BWRAP` when the operator names one, else the first bwrap on the
 * operator's PATH (the program is theirs to choose), else the system's.
 */
export function bwrapProgram(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CREWBOT_BWRAP) return env.CREWBOT_BWRAP;
  for (const dir of (env.PATH ?? process.env.PATH ?? "").split(":").filter(Boolean)) {
    const candidate = path.join(dir, "bwrap");
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return findExecutable("bwrap");
}

export function hostLayout(root: string, bwrap?: string): HostLayout {
  const system: HostLayout["system"] = [];
  for (const p of SYSTEM_PATHS) {
    const st = lstatSync(p, { throwIfNoEntry: false });
    if (st === undefined) continue;
    if (st.isSymbolicLink()) system.push({ path: p, symlink: readlinkSync(p) });
    else if (st.isDirectory()) system.push({ path: p });
  }
  const layout: HostLayout = { system, ...bwrapFeatures(bwrap) };
  const git = path.join(root, ".git");
  const gst = lstatSync(git, { throwIfNoEntry: false });
  if (gst !== undefined && !gst.isSymbolicLink()) layout.gitPath = git;
  try {
    layout.resolvConf = realpathSync("/etc/resolv.conf");
  } catch {
    // no resolv.conf: nothing to bind over
  }
  return layout;
}

/** With network on: the egress-only namespace bwrap is started in (sandbox-network.ts). */
export interface SandboxNet {
  /** A resolv.conf naming slirp's DNS forwarder. */
  resolvConf: string;
}

/**
 * bubblewrap argv (without the bwrap program itself). Later binds win over earlier ones,
 * so the order matters: private /tmp first (the dirs below may live under the host /tmp),
 * then scratch HOME, the checkout, its .git re-bound read-only, the artifacts read-only.
 * Network on shares only the egress namespace bwrap is started in, never the host's: without
 * one (`net`) this refuses.
 */
export function bwrapArgs(ctx: SandboxContext, command: readonly string[], layout: HostLayout, net?: SandboxNet): string[] {
  if (ctx.network && net === undefined) throw new Error("network on needs the sandbox's own egress-only network namespace");
  // --cap-drop ALL: bwrap started by root keeps every capability inside its user namespace,
  // and with CAP_SYS_ADMIN `mount -o remount,bind,rw` would undo the read-only binds.
  const args = ["--die-with-parent", "--new-session", "--unshare-all", "--cap-drop", "ALL"];
  // A user namespace of its own in which no further one can be made: `unshare -U`/`-r` cannot
  // hand the command a fresh set of capabilities (and the kernel surface that comes with them).
  if (layout.disableUserns === true) args.push("--unshare-user", "--disable-userns");
  if (ctx.network) args.push("--share-net");
  for (const s of layout.system) {
    if (s.symlink !== undefined) args.push("--symlink", s.symlink, s.path);
    else args.push("--ro-bind", s.path, s.path);
  }
  if (ctx.network && net !== undefined) args.push("--ro-bind", net.resolvConf, layout.resolvConf ?? "/etc/resolv.conf");
  args.push("--proc", "/proc", "--dev", "/dev");
  if (layout.tmpfsSize === true) args.push("--size", String(TMP_MAX_BYTES));
  args.push("--tmpfs", "/tmp");
  args.push("--bind", ctx.scratchDir, ctx.scratchDir);
  args.push(ctx.mode === "write" ? "--bind" : "--ro-bind", ctx.root, ctx.root);
  if (layout.gitPath !== undefined) args.push("--ro-bind", layout.gitPath, layout.gitPath);
  args.push("--ro-bind", ctx.artifactsDir, ctx.artifactsDir);
  // The sandbox's own root is a tmpfs: make it read-only so stray writes fail loudly instead of vanishing.
  args.push("--remount-ro", "/", "--chdir", ctx.root, "--", ...command);
  return args;
}

/** The shell commands run in: bash when the host has it. */
export function shellPath(): string {
  return existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";
}

/** Full argv to run `command` (a shell command, or an argv) inside the sandbox, with bwrap `program`. */
export function sandboxedArgv(ctx: SandboxContext, command: string | readonly string[], program = bwrapProgram(), net?: SandboxNet): string[] {
  if (program === undefined) throw new Error("bwrap is not installed");
  const argv = typeof command === "string" ? [shellPath(), "-c", command] : command;
  return [program, ...bwrapArgs(ctx, argv, hostLayout(ctx.root, program), net)];
}

const probes = new Map<string, Promise<SandboxInfo>>();

/**
 * Whether bubblewrap works here, checked once per program: installed is not enough (user
 * namespaces may be off in a container, /proc masked), so it runs a trivial command with the
 * real flags, checks that a read-only checkout really refuses a write, and whether "network on"
 * can have its egress-only namespace.
 */
export function detectSandbox(opts: { fresh?: boolean; program?: string } = {}): Promise<SandboxInfo> {
  const program = opts.program ?? bwrapProgram();
  const key = program ?? "";
  if (!probes.has(key) || opts.fresh === true) probes.set(key, probe(program));
  return probes.get(key)!;
}

async function probe(bwrap: string | undefined): Promise<SandboxInfo> {
  if (bwrap === undefined) return { available: false, reason: "bubblewrap (bwrap) is not installed" };
  const tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), "crewbot-sandbox-probe-")));
  try {
    const dirs = { root: path.join(tmp, "checkout"), scratchDir: path.join(tmp, "home"), artifactsDir: path.join(tmp, "artifacts") };
    for (const d of Object.values(dirs)) await mkdir(d);
    const run = async (mode: Mode, command: string, net?: EgressNetwork): Promise<{ ok: boolean; output: string }> => {
      const ctx = { ...dirs, mode, network: net !== undefined };
      let output = "";
      const argv = sandboxedArgv(ctx, command, bwrap, net);
      const res = await runProcess(net ? net.enter(argv) : argv, {
        cwd: dirs.root,
        env: buildEnv({ scratchDir: dirs.scratchDir, envAllowlist: {} }),
        timeoutMs: 15_000,
        onData: (c) => {
          if (output.length < 2000) output += c.toString("utf8");
        },
      });
      const ok = res.exitCode === 0 && res.spawnError === undefined;
      return { ok, output: (res.spawnError ?? output).trim().split("\n")[0] ?? "" };
    };
    let basic = await run("write", "true");
    const f = bwrapFeatures(bwrap);
    if (!basic.ok && (f.disableUserns || f.tmpfsSize)) {
      // A bwrap that lists the flags but cannot use them here (setuid bwrap, user namespaces off):
      // a sandbox without them still beats none.
      featuresOf.set(bwrap, { tmpfsSize: false, disableUserns: false });
      basic = await run("write", "true");
    }
    if (!basic.ok) return { available: false, reason: `bubblewrap does not work here: ${basic.output || "it failed without a message"}` };
    const probeFile = path.join(dirs.root, "probe");
    await run("read-only", "echo x > probe");
    if (existsSync(probeFile)) return { available: false, reason: "bubblewrap did not make the checkout read-only" };
    return { available: true, program: bwrap, network: await probeNetwork((net) => run("write", "true", net)) };
  } catch (err) {
    return { available: false, reason: `bubblewrap check failed: ${(err as Error).message}` };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

async function probeNetwork(run: (net: EgressNetwork) => Promise<{ ok: boolean; output: string }>): Promise<{ available: boolean; reason?: string }> {
  let net: EgressNetwork | undefined;
  try {
    net = await EgressNetwork.open({ allow: [] });
    const res = await run(net);
    return res.ok ? { available: true } : { available: false, reason: `bubblewrap does not start inside the sandbox's network namespace: ${res.output || "no message"}` };
  } catch (err) {
    return { available: false, reason: (err as Error).message };
  } finally {
    await net?.close();
  }
}
