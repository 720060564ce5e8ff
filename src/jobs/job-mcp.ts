/**
 * A job's MCP servers: the operator's remote ones, and the repository's stdio ones (`mcp.servers`,
 * read from the default branch like all config, so a pull request cannot add one). A repository
 * server starts only on the repository's own code (never a fork's pull request: nothing of a
 * stranger's runs) and only where commands may run (a sandbox, or the operator's explicit opt-in);
 * otherwise the transcript and the log say it was skipped, and why — the job goes on.
 */
import path from "node:path";
import { ROLES, roleOf, type RoleName } from "../agent/roles.js";
import type { AgentEvent } from "../agent/events.js";
import { stepAgents } from "../chain/chains.js";
import type { RunChainOptions } from "../chain/run-chain.js";
import type { RepoMcpServerConfig } from "../config/mcp-servers.js";
import { NO_MCP, openMcp, remoteServer, type McpServer, type McpSession } from "../mcp/session.js";
import { stdioServers } from "../mcp/stdio.js";
import { commandsRefusal, runsUnsandboxed, UNSANDBOXED_NOTE } from "../tools/sandbox-policy.js";
import type { Mode, SandboxInfo } from "../tools/types.js";
import { checkoutPolicy } from "./checkout-trust.js";
import type { JobDirs } from "./job-dirs.js";
import type { Prepared } from "./prepare.js";
import type { JobServices } from "./services.js";

type Say = (level: "info" | "warn", message: string) => void;

/** The servers some agent of the chain may use, connected for this chain (none configured: none). */
export async function jobMcp(
  services: JobServices,
  prepared: Prepared,
  dirs: JobDirs,
  chain: RunChainOptions["chain"],
  run: { signal: AbortSignal; event: (event: AgentEvent) => void },
): Promise<McpSession> {
  const operator = (services.runtime.mcpServers ?? []).map(remoteServer);
  const configured = prepared.config.mcp.servers;
  if (operator.length === 0 && Object.keys(configured).length === 0) return NO_MCP;
  const jobId = path.basename(dirs.jobDir);
  // Both the operator's log (with the job's id) and the job's transcript.
  const say: Say = (level, message) => {
    services.observe.log[level](`job ${jobId}: ${message}`);
    run.event({ type: "log", level, message });
  };
  const roles = chain.steps.flatMap(stepAgents).flatMap((name) => {
    const agent = prepared.agents.get(name);
    return agent ? [roleOf(agent)] : [];
  });
  const repository = repositoryServers(configured, operator, prepared, dirs, await services.runtime.sandbox(), say);
  const readers = prepared.linkedTickets.links.map((link) => link.server);
  return openMcp([...operator, ...repository], { roles, readers, signal: run.signal, log: { info: (m) => say("info", m), warn: (m) => say("warn", m) } });
}

/** The repository's servers this job may start, each with its sandbox; every one left out is said. */
export function repositoryServers(configured: Record<string, RepoMcpServerConfig>, operator: readonly McpServer[], prepared: Prepared, dirs: JobDirs, sandbox: SandboxInfo, say: Say): McpServer[] {
  const names = Object.keys(configured);
  if (names.length === 0) return [];
  const { policy } = prepared;
  if (!checkoutPolicy(policy.trust).repoCommands) {
    say("info", `the repository's MCP servers (${names.join(", ")}) were not started: this pull request's code is a fork's, and nothing of a stranger's code runs`);
    return [];
  }
  const refusal = commandsRefusal(sandbox, { network: policy.network });
  if (refusal !== undefined) {
    say("warn", `the repository's MCP servers (${names.join(", ")}) were not started: ${refusal.reason}. ${refusal.remedy}`);
    return [];
  }
  if (runsUnsandboxed(sandbox)) say("warn", `the repository's MCP servers: ${UNSANDBOXED_NOTE}`);
  const taken = new Set(operator.map((s) => s.name.toLowerCase()));
  const kept = Object.fromEntries(
    Object.entries(configured).filter(([name]) => {
      if (!taken.has(name.toLowerCase())) return true;
      say("warn", `the repository's MCP server ${name} was not started: the operator's server of that name is used (\`mcp.servers.${name}\`: choose another name)`);
      return false;
    }),
  );
  const workspace = { root: prepared.root, scratchDir: dirs.scratchDir, artifactsDir: dirs.artifactsDir, sandbox, network: policy.network, envAllowlist: {} };
  return stdioServers(kept, (server) => ({ ...workspace, mode: serverMode(policy.mode, server.roles) }));
}

/** The checkout is writable to a server only in a job that writes, and only when a writing role (the worker) uses it. */
export function serverMode(jobMode: Mode, roles: readonly RoleName[]): Mode {
  return jobMode === "write" && roles.some((role) => ROLES[role].writes) ? "write" : "read-only";
}
