/**
 * A chain's MCP servers, the same for a job (jobs/job-mcp.ts) and `crewbot run` (cli/run.ts): the
 * operator's remote ones (`CREWBOT_MCP_CONFIG`) and the repository's stdio ones (`mcp.servers`).
 * A repository server starts only where commands may run (a sandbox, or the operator's explicit
 * opt-in); each one left out is said, and why — the chain goes on. Whether the checkout's code may
 * run at all (a fork's may not) is the caller's to decide: it passes no servers then.
 */
import { ROLES, roleOf, type RoleName } from "../agent/roles.js";
import { stepAgents } from "../chain/chains.js";
import type { AgentDefinition, ChainDefinition } from "../chain/types.js";
import type { RepoMcpServerConfig } from "../config/mcp-servers.js";
import { commandsRefusal, runsUnsandboxed, UNSANDBOXED_NOTE } from "../tools/sandbox-policy.js";
import type { Mode, SandboxInfo } from "../tools/types.js";
import type { McpServerConfig } from "./config.js";
import { NO_MCP, openMcp, remoteServer, type McpServer, type McpSession } from "./session.js";
import { stdioServers } from "./stdio.js";

export type Say = (level: "info" | "warn", message: string) => void;

/** Where a repository's servers run: the chain's checkout and directories, its sandbox and policy. */
export interface ServerWorkspace {
  root: string;
  scratchDir: string;
  artifactsDir: string;
  sandbox: SandboxInfo;
  network: boolean;
  /** The chain's mode: a server's checkout is writable only in a writing chain, for a writing role. */
  mode: Mode;
}

export interface ChainMcpInput {
  operator: readonly McpServerConfig[];
  /** The repository's servers the caller lets start (a fork's code: none). */
  configured: Record<string, RepoMcpServerConfig>;
  chain: ChainDefinition;
  agents: ReadonlyMap<string, AgentDefinition>;
  workspace: ServerWorkspace;
  /** Servers connected for crewbot's own reads (linked tickets) whatever the chain's roles. */
  readers?: readonly string[];
  signal: AbortSignal;
  say: Say;
}

/** The servers some agent of the chain may use, connected for this chain (none configured: none). */
export async function chainMcp(input: ChainMcpInput): Promise<McpSession> {
  const operator = input.operator.map(remoteServer);
  if (operator.length === 0 && Object.keys(input.configured).length === 0) return NO_MCP;
  const { say } = input;
  const roles = input.chain.steps.flatMap(stepAgents).flatMap((name) => {
    const agent = input.agents.get(name);
    return agent ? [roleOf(agent)] : [];
  });
  const repository = repositoryServers(input.configured, operator, input.workspace, say);
  const log = { info: (m: string) => say("info", m), warn: (m: string) => say("warn", m) };
  return openMcp([...operator, ...repository], { roles, readers: input.readers ?? [], signal: input.signal, log });
}

/** The repository's servers that may start, each with its sandbox; every one left out is said. */
export function repositoryServers(configured: Record<string, RepoMcpServerConfig>, operator: readonly McpServer[], workspace: ServerWorkspace, say: Say): McpServer[] {
  const names = Object.keys(configured);
  if (names.length === 0) return [];
  const { sandbox, network } = workspace;
  const refusal = commandsRefusal(sandbox, { network });
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
  const { root, scratchDir, artifactsDir } = workspace;
  const context = { root, scratchDir, artifactsDir, sandbox, network, envAllowlist: {} };
  return stdioServers(kept, (server) => ({ ...context, mode: serverMode(workspace.mode, server.roles) }));
}

/** The checkout is writable to a server only in a chain that writes, and only when a writing role (the worker) uses it. */
export function serverMode(chainMode: Mode, roles: readonly RoleName[]): Mode {
  return chainMode === "write" && roles.some((role) => ROLES[role].writes) ? "write" : "read-only";
}
