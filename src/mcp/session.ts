/**
 * A job's MCP servers: at the job's start each server one of the chain's roles may use is
 * connected (the operator's over Streamable HTTP, its headers sent by crewbot alone; the
 * repository's started in the sandbox, stdio.ts) and its tools listed, kept when
 * its allow-list admits them, named, and their schemas checked; a server that cannot be reached or
 * listed is one log line and offers nothing. The agents get their role's tools; the job closes
 * every connection when its chain ends.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import picomatch from "picomatch";
import type { RoleName } from "../agent/roles.js";
import { redact } from "../secrets/redact.js";
import type { Tool } from "../tools/types.js";
import type { McpServerConfig } from "./config.js";
import { inputSchemaOf } from "./input-schema.js";
import { nameTools } from "./names.js";
import { MCP_CALL_TIMEOUT_MS, mcpTool, type McpCaller, type McpCallResult } from "./tool.js";

/** Connecting and listing one server at a job's start may take this long. */
export const MCP_LIST_TIMEOUT_MS = 15_000;
/** Most tools kept of one server, and pages of its list read. */
const MAX_TOOLS = 100;
const MAX_PAGES = 10;

export interface McpSession {
  /** The tools a step of this role is offered, in the servers' order. */
  toolsFor(role: RoleName): Tool[];
  /** A connected server's calls for crewbot's own reads (a linked ticket), offered to no model; undefined: not connected. */
  caller(server: string): McpCaller | undefined;
  close(): Promise<void>;
}

export interface OpenMcpOptions {
  /** The roles of the chain's agents: a server none of them may use is not connected. */
  roles: readonly RoleName[];
  signal: AbortSignal;
  log: { info(message: string): void; warn(message: string): void };
  /** Every secret redaction knows (the servers' own are added). */
  secrets?: readonly string[];
  /** Names the model already has (the built-in tools): an MCP tool named so is refused. */
  taken?: ReadonlySet<string>;
  /** Servers connected for crewbot's own reads (tickets.ts) even when no role of the chain may use them. */
  readers?: readonly string[];
  callTimeoutMs?: number;
  listTimeoutMs?: number;
}

/** One server as a session opens it: who gets its tools, which ones, and how it is reached. */
export interface McpServer {
  name: string;
  roles: RoleName[];
  /** Tool names or globs; undefined: the tools whose annotations say `readOnlyHint: true`. */
  tools?: string[];
  /** What redaction must know of it. */
  secrets: readonly string[];
  kind: "remote" | "stdio";
  /** A fresh connection (an HTTP client, a program started in the sandbox). */
  transport(): Transport;
  /** What a program wrote on its stderr (capped), for the log; remote servers have none. */
  stderr?(): string;
}

/** An operator's server: Streamable HTTP with its headers. */
export function remoteServer(config: McpServerConfig): McpServer {
  return {
    name: config.name,
    roles: config.roles,
    ...(config.tools ? { tools: config.tools } : {}),
    secrets: config.secrets,
    kind: "remote",
    transport: () => new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } }),
  };
}

interface OpenServer {
  config: McpServer;
  client: Client;
  tools: Tool[];
  caller: McpCaller;
}

export const NO_MCP: McpSession = { toolsFor: () => [], caller: () => undefined, close: async () => {} };

export async function openMcp(servers: readonly McpServer[], options: OpenMcpOptions): Promise<McpSession> {
  const wanted = servers.filter((s) => s.roles.some((role) => options.roles.includes(role)) || options.readers?.includes(s.name));
  if (wanted.length === 0) return NO_MCP;
  const opened = (await Promise.all(wanted.map((config) => openServer(config, options)))).filter((s): s is OpenServer => s !== undefined);
  return {
    toolsFor: (role) => opened.filter((s) => s.config.roles.includes(role)).flatMap((s) => s.tools),
    caller: (server) => opened.find((s) => s.config.name === server)?.caller,
    close: async () => {
      await Promise.allSettled(opened.map((s) => s.client.close()));
      for (const s of opened) logStderr(s.config, options);
    },
  };
}

/** A program's stderr, capped and redacted, is one log line when the session ends. */
function logStderr(server: McpServer, options: OpenMcpOptions): void {
  const text = server.stderr?.().trim();
  if (text) options.log.info(redact(`MCP server ${server.name} wrote on stderr:\n${text}`, [...(options.secrets ?? []), ...server.secrets]));
}

async function openServer(config: McpServer, options: OpenMcpOptions): Promise<OpenServer | undefined> {
  const secrets = [...(options.secrets ?? []), ...config.secrets];
  const client = new Client({ name: "crewbot", version: "1" });
  const timeout = options.listTimeoutMs ?? MCP_LIST_TIMEOUT_MS;
  const listed: Array<{ name: string; description?: string; inputSchema?: unknown; annotations?: { readOnlyHint?: boolean } }> = [];
  try {
    await client.connect(config.transport(), { signal: options.signal, timeout });
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await client.listTools(cursor ? { cursor } : {}, { signal: options.signal, timeout });
      listed.push(...answer.tools);
      cursor = answer.nextCursor;
      if (!cursor) break;
    }
  } catch (err) {
    await client.close().catch(() => undefined);
    const how = config.kind === "stdio" ? "started or listed" : "reached or listed";
    const stderr = config.stderr?.().trim();
    const said = stderr ? `; on stderr:\n${stderr}` : "";
    options.log.warn(redact(`MCP server ${config.name} offers no tools to this job: it could not be ${how} (${err instanceof Error ? err.message.split("\n")[0] : String(err)})${said}`, secrets));
    return undefined;
  }
  const allowed = allowList(config);
  const kept = listed.filter((t) => typeof t.name === "string" && allowed(t)).slice(0, MAX_TOOLS);
  const { names, refused } = nameTools(config.name, kept.map((t) => t.name), options.taken);
  if (refused.length > 0) options.log.warn(`MCP server ${config.name}: tools left out, their names collide once made into tool names: ${refused.join(", ")}`);
  const caller: McpCaller = {
    server: config.name,
    secrets,
    call: async (name, args, { signal, timeoutMs }) => (await client.callTool({ name, arguments: args }, undefined, { signal, timeout: timeoutMs })) as McpCallResult,
  };
  const tools: Tool[] = [];
  for (const info of kept) {
    const offeredAs = names.get(info.name);
    if (offeredAs === undefined) continue;
    const schema = inputSchemaOf(info.inputSchema);
    if (!schema.ok) {
      options.log.warn(redact(`MCP server ${config.name}: tool ${info.name} left out: ${schema.reason}`, secrets));
      continue;
    }
    const readOnly = info.annotations?.readOnlyHint === true;
    tools.push(mcpTool(caller, { name: info.name, offeredAs, description: info.description, schema: schema.schema as never, readOnly }, options.callTimeoutMs ?? MCP_CALL_TIMEOUT_MS));
  }
  options.log.info(`MCP server ${config.name}: ${tools.length} tool${tools.length === 1 ? "" : "s"} offered to ${config.roles.join(", ")}`);
  return { config, client, tools, caller };
}

/** The server's allow-list: names or globs (picomatch) of its tools; none written: the read-only ones by their annotations. */
function allowList(config: McpServer): (tool: { name: string; annotations?: { readOnlyHint?: boolean } }) => boolean {
  if (config.tools === undefined) return (tool) => tool.annotations?.readOnlyHint === true;
  const match = picomatch(config.tools);
  return (tool) => match(tool.name);
}
