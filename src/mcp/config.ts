/**
 * `CREWBOT_MCP_CONFIG`: the operator's remote MCP servers, a YAML (or JSON, which YAML reads too)
 * file read once at start; a bad file stops the app naming the file and the key.
 *
 *   servers:
 *     tracker:
 *       url: https://mcp.example.com/mcp
 *       headers: { Authorization: "Bearer ${TRACKER_TOKEN}" }   # ${VAR}: from crewbot's environment
 *       roles: [planner, reviewer]
 *       tools: [get_issue, "search_*"]                          # absent: the read-only ones
 *       tickets: { tracker: jira }                              # reads linked Jira tickets (trackers.ts)
 *
 * The expanded header values are secrets: crewbot alone holds them (see `mcpSecrets`).
 */
import { z } from "zod";
import { parseOperatorFile, readOperatorFile } from "../agent/operator-file.js";
import { ROLE_NAMES, type RoleName } from "../agent/roles.js";
import { MCP_SERVER_NAME, MCP_SERVER_NAME_RULE } from "../config/mcp-servers.js";
import { secondReader, ticketReader, TicketsEntry, type TicketReader } from "./trackers.js";

export const MCP_CONFIG_VARIABLE = "CREWBOT_MCP_CONFIG";

const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

const Server = z.strictObject(
  {
    url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
    headers: z.record(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { error: "must be an HTTP header name" }), z.string({ error: "must be a string" })).optional(),
    roles: z.array(z.enum(ROLE_NAMES as [RoleName, ...RoleName[]], { error: `must be one of ${ROLE_NAMES.join(", ")}` })).min(1, { error: "must name at least one role" }),
    tools: z.array(z.string().trim().min(1, { error: "a tool name or glob must not be empty" })).optional(),
    tickets: TicketsEntry.optional(),
  },
  { error: "must be a mapping with url, roles (and optionally headers, tools, tickets)" },
);

const File = z.strictObject(
  { servers: z.record(z.string().regex(MCP_SERVER_NAME, { error: MCP_SERVER_NAME_RULE }), Server) },
  { error: "must be a mapping with servers" },
);

/** One remote server as crewbot uses it: its headers expanded (secrets), its allow-list as written. */
export interface McpServerConfig {
  name: string;
  url: string;
  headers: Record<string, string>;
  roles: RoleName[];
  /** Tool names or globs; undefined: the tools whose annotations say `readOnlyHint: true`. */
  tools?: string[];
  /** The tracker whose linked tickets crewbot reads through this server, whatever its roles (trackers.ts). */
  tickets?: TicketReader;
  /** What redaction must know: each header value, its last word (`Bearer <token>`'s token) and each variable put into it. */
  secrets: string[];
}

export class McpConfigError extends Error {
  override name = "McpConfigError";
}

/** Parses the file's text; every problem names `file` and the key (`servers.<name>.<field>`). */
export function parseMcpConfig(text: string, file: string, env: NodeJS.ProcessEnv): McpServerConfig[] {
  const fail = (message: string): never => {
    throw new McpConfigError(`${MCP_CONFIG_VARIABLE} (${file}): ${message}`);
  };
  const parsed = parseOperatorFile(text, file, { variable: MCP_CONFIG_VARIABLE, schema: File, error: McpConfigError, unknownKey: "unknown key" });
  const servers = Object.entries(parsed.servers).map(([name, server]): McpServerConfig => {
    const secrets: string[] = [];
    const headers = Object.fromEntries(
      Object.entries(server.headers ?? {}).map(([header, value]) => {
        const expanded = value.replace(ENV_REF, (_ref, variable: string) => {
          const set = env[variable] || fail(`servers.${name}.headers.${header}: \${${variable}} is not set in crewbot's environment`);
          secrets.push(set);
          return set;
        });
        secrets.push(expanded, expanded.trim().split(/\s+/).at(-1) ?? "");
        return [header, expanded];
      }),
    );
    const tickets = server.tickets ? { tickets: ticketReader(server.tickets) } : {};
    return { name, url: server.url, headers, roles: [...new Set(server.roles)], ...(server.tools ? { tools: server.tools } : {}), ...tickets, secrets: [...new Set(secrets.filter(Boolean))] };
  });
  const twice = secondReader(servers);
  return twice ? fail(twice) : servers;
}

/** The operator's servers from `CREWBOT_MCP_CONFIG`; none when it is unset. */
export function loadMcpConfig(env: NodeJS.ProcessEnv): McpServerConfig[] {
  const read = readOperatorFile(env[MCP_CONFIG_VARIABLE], { variable: MCP_CONFIG_VARIABLE, error: McpConfigError });
  return read ? parseMcpConfig(read.text, read.file, env) : [];
}

/** Every server's secrets, for redaction everywhere (logs, transcripts, model requests, GitHub writes). */
export function mcpSecrets(servers: readonly McpServerConfig[]): string[] {
  return [...new Set(servers.flatMap((s) => s.secrets))];
}
