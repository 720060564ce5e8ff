/**
 * `crewbot run`'s MCP servers, as a job's (mcp/chain-servers.ts): the operator's remote ones from
 * `CREWBOT_MCP_CONFIG`, read and checked as at the app's start, and the checkout's stdio ones from
 * its `.github/crewbot.yml` `mcp.servers` — the user's own code, so trusted, but started only in
 * the sandbox (or with the explicit opt-in). The servers' header values are secrets: every line the
 * CLI prints is redacted of them, and so is every model request.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { RepoMcpServerConfig } from "../config/mcp-servers.js";
import { loadConfigFile } from "../config/load.js";
import { CONFIG_PATH } from "../config/schema.js";
import { ConfigError } from "../config/validate.js";
import { chainMcp, type ChainMcpInput } from "../mcp/chain-servers.js";
import { loadMcpConfig, mcpSecrets, type McpServerConfig } from "../mcp/config.js";
import type { McpSession } from "../mcp/session.js";
import { redact } from "../secrets/redact.js";
import type { CliIO } from "./io.js";

export interface LocalMcp {
  operator: McpServerConfig[];
  configured: Record<string, RepoMcpServerConfig>;
  /** What redaction must know: the operator's servers' header values. */
  secrets: string[];
}

/** The servers' configuration; else why the run may not go (the file and the key named). */
export async function localMcpConfig(repo: string, env: NodeJS.ProcessEnv): Promise<LocalMcp | string> {
  let operator: McpServerConfig[];
  try {
    operator = loadMcpConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  const file = path.join(repo, CONFIG_PATH);
  if (!existsSync(file)) return { operator, configured: {}, secrets: mcpSecrets(operator) };
  try {
    const { config } = await loadConfigFile(file);
    return { operator, configured: config.mcp.servers, secrets: mcpSecrets(operator) };
  } catch (error) {
    if (!(error instanceof ConfigError)) return `${file}: ${(error as Error).message}`;
    // The key's backticks are for GitHub's markdown; a terminal shows the key plainly.
    return [`${file} is invalid:`, ...error.problems.map((p) => `  - ${p.replace(/^`([^`]*)`:/, "$1:")}`)].join("\n");
  }
}

/** The CLI's output with the servers' secrets redacted (nothing to redact: as it was). */
export function redactingIO(io: CliIO, secrets: readonly string[]): CliIO {
  if (secrets.length === 0) return io;
  return { ...io, stdout: (text) => io.stdout(redact(text, secrets)), stderr: (text) => io.stderr(redact(text, secrets)) };
}

/** The chain's session; what is said of the servers goes to stderr. */
export function openLocalMcp(mcp: LocalMcp, io: CliIO, input: Omit<ChainMcpInput, "operator" | "configured" | "say" | "signal">): Promise<McpSession> {
  return chainMcp({
    ...input,
    operator: mcp.operator,
    // The user's own checkout: its servers may start (the sandbox rule still holds).
    configured: mcp.configured,
    signal: io.signal ?? new AbortController().signal,
    say: (level, message) => io.stderr(`crewbot: ${level === "warn" ? "warning" : "note"}: ${message}`),
  });
}
