/**
 * A job's MCP servers (mcp/chain-servers.ts): the operator's remote ones, and the repository's
 * stdio ones (`mcp.servers`, read from the default branch like all config, so a pull request
 * cannot add one). A repository server starts only on the repository's own code (never a fork's
 * pull request: nothing of a stranger's runs); the transcript and the log say when it was skipped.
 */
import path from "node:path";
import type { AgentEvent } from "../agent/events.js";
import type { RunChainOptions } from "../chain/run-chain.js";
import { chainMcp, type Say } from "../mcp/chain-servers.js";
import type { McpSession } from "../mcp/session.js";
import { checkoutPolicy } from "./checkout-trust.js";
import type { JobDirs } from "./job-dirs.js";
import type { Prepared } from "./prepare.js";
import type { JobServices } from "./services.js";

/** The servers some agent of the chain may use, connected for this chain (none configured: none). */
export async function jobMcp(
  services: JobServices,
  prepared: Prepared,
  dirs: JobDirs,
  chain: RunChainOptions["chain"],
  run: { signal: AbortSignal; event: (event: AgentEvent) => void },
): Promise<McpSession> {
  const jobId = path.basename(dirs.jobDir);
  // Both the operator's log (with the job's id) and the job's transcript.
  const say: Say = (level, message) => {
    services.observe.log[level](`job ${jobId}: ${message}`);
    run.event({ type: "log", level, message });
  };
  const { policy } = prepared;
  return chainMcp({
    operator: services.runtime.mcpServers ?? [],
    configured: runnableServers(prepared, say),
    chain,
    agents: prepared.agents,
    workspace: { root: prepared.root, scratchDir: dirs.scratchDir, artifactsDir: dirs.artifactsDir, sandbox: await services.runtime.sandbox(), network: policy.network, mode: policy.mode },
    readers: prepared.linkedTickets.links.map((link) => link.server),
    signal: run.signal,
    say,
  });
}

/** The repository's servers, unless this job's code is a fork's (then none, and said). */
export function runnableServers(prepared: Pick<Prepared, "config" | "policy">, say: Say): Prepared["config"]["mcp"]["servers"] {
  const configured = prepared.config.mcp.servers;
  const names = Object.keys(configured);
  if (names.length === 0 || checkoutPolicy(prepared.policy.trust).repoCommands) return configured;
  say("info", `the repository's MCP servers (${names.join(", ")}) were not started: this pull request's code is a fork's, and nothing of a stranger's code runs`);
  return {};
}
