/**
 * No sandbox, no commands: the probe's facts (sandbox.ts) with the operator's policy, and the one
 * answer to "may this job run commands here?". Failing closed is the default; running without
 * bubblewrap is an explicit opt-in (`CREWBOT_ALLOW_UNSANDBOXED=1`) for trusted repositories.
 */
import { detectSandbox, bwrapProgram } from "./sandbox.js";
import { parseAllowCidrs } from "./sandbox-network.js";
import type { SandboxInfo } from "./types.js";

export const ALLOW_UNSANDBOXED_VAR = "CREWBOT_ALLOW_UNSANDBOXED";

export interface SandboxPolicy {
  allowUnsandboxed: boolean;
  allowCidrs: string[];
}

/** The operator's sandbox variables; throws naming the variable on a bad value (the app then does not start). */
export function sandboxPolicy(env: NodeJS.ProcessEnv): SandboxPolicy {
  const raw = (env[ALLOW_UNSANDBOXED_VAR] ?? "").trim().toLowerCase();
  if (!["", "0", "1", "false", "true"].includes(raw)) throw new Error(`${ALLOW_UNSANDBOXED_VAR}: expected 1 (or 0), got "${env[ALLOW_UNSANDBOXED_VAR]}"`);
  return { allowUnsandboxed: raw === "1" || raw === "true", allowCidrs: parseAllowCidrs(env.CREWBOT_SANDBOX_ALLOW_CIDRS) };
}

/** The probe's verdict for this process (cached per bwrap program) with the operator's policy. */
export async function sandboxFor(env: NodeJS.ProcessEnv, policy = sandboxPolicy(env)): Promise<SandboxInfo> {
  return { ...(await detectSandbox({ program: bwrapProgram(env) })), ...policy };
}

/** What the operator can do about a missing sandbox, for comments and logs. */
export const SANDBOX_REMEDY =
  "The operator can install bubblewrap and give the container what it needs (the README's container section), or set CREWBOT_ALLOW_UNSANDBOXED=1 for trusted repositories only.";

const NETWORK_REMEDY = "The operator can install slirp4netns (with util-linux's unshare and nsenter, and iproute2's ip) on the worker host.";

/**
 * Why a job that would run commands (the worker's bash, `setup`, `check`) must not start here,
 * and what the operator can do; undefined when it may. `network`: some of those commands would
 * have the network on.
 */
export function commandsRefusal(info: SandboxInfo, needs: { network: boolean }): { reason: string; remedy: string } | undefined {
  if (!info.available) {
    if (info.allowUnsandboxed === true) return undefined;
    return { reason: `no OS sandbox on this worker (${info.reason ?? "bubblewrap does not work"}): crewbot runs no commands without one`, remedy: SANDBOX_REMEDY };
  }
  if (needs.network && info.network?.available !== true) {
    return { reason: `the sandbox's network is not available on this worker (${info.network?.reason ?? "not checked"}): commands with network on need it`, remedy: NETWORK_REMEDY };
  }
  return undefined;
}

/** Commands run without bubblewrap because the operator allowed it: said in the job's log and transcript. */
export function runsUnsandboxed(info: SandboxInfo): boolean {
  return !info.available && info.allowUnsandboxed === true;
}

export const UNSANDBOXED_NOTE = "commands run WITHOUT an OS sandbox (CREWBOT_ALLOW_UNSANDBOXED=1): they can read this host's files and use its network";

/** The start-up log line. */
export function describeSandbox(info: SandboxInfo): string {
  if (!info.available) {
    const then = info.allowUnsandboxed === true ? "commands run UNSANDBOXED (CREWBOT_ALLOW_UNSANDBOXED=1; trusted repositories only)" : `read-only steps get no bash and jobs that run commands fail. ${SANDBOX_REMEDY}`;
    return `sandbox: not available (${info.reason ?? "unknown"}): ${then}`;
  }
  const net = info.network?.available === true ? "network on is egress-only (slirp4netns)" : `network on is not available (${info.network?.reason ?? "not checked"}): jobs that need it fail`;
  const allow = info.allowCidrs !== undefined && info.allowCidrs.length > 0 ? `; allowed internal ranges: ${info.allowCidrs.join(", ")}` : "";
  return `sandbox: bubblewrap works (${info.program ?? "bwrap"}); ${net}${allow}`;
}

/** The `sandbox` field of `GET /healthz`. */
export function sandboxHealth(info: SandboxInfo): Record<string, unknown> {
  return {
    available: info.available,
    ...(info.reason !== undefined ? { reason: info.reason } : {}),
    network: info.network?.available === true,
    ...(info.network?.reason !== undefined ? { networkReason: info.network.reason } : {}),
    allowUnsandboxed: info.allowUnsandboxed === true,
  };
}
