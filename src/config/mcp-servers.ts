/**
 * `mcp.servers`: a repository's stdio MCP servers (DESIGN §4, §5), run inside the sandbox for
 * trusted checkouts only (mcp/stdio.ts). The rule for a server's name is here, below both the
 * repository's config and the operator's file (mcp/config.ts), so the two cannot drift apart.
 */
import { z } from "zod";
import { ROLE_NAMES, type RoleName } from "../agent/roles.js";

/** No `_` in a server's name: `mcp__<server>__<tool>` must split back one way. */
export const MCP_SERVER_NAME = /^[a-zA-Z0-9-]{1,24}$/;
export const MCP_SERVER_NAME_RULE = "a server's name is 1 to 24 letters, digits or '-'";

/** The roles a server's tools go to: at least one of the role table's. */
const mcpRoles = z
  .array(z.enum(ROLE_NAMES as [RoleName, ...RoleName[]], { error: `one of ${ROLE_NAMES.join(", ")}` }), { error: `a list of roles (${ROLE_NAMES.join(", ")})` })
  .min(1, { error: "at least one role" });

/** A server's allow-list: tool names or globs; absent, the tools its server marks read-only (`readOnlyHint`). */
const mcpToolList = z.array(z.string({ error: "a tool name or glob" }).trim().min(1, { error: "a tool name or glob, not an empty string" }).max(200, { error: "a tool name or glob of at most 200 characters" }), {
  error: "a list of tool names or globs",
});

/** One word of a server's command line: no NUL (it could not be passed), bounded. */
const word = (what: string) =>
  z
    .string({ error: what })
    .max(2000, { error: `${what} of at most 2000 characters` })
    .refine((w) => !w.includes("\0"), { error: `${what} without NUL characters` });

const stdioServer = z.strictObject(
  {
    command: word("a program (a string): a name on the sandbox's PATH, or a path in the checkout")
      .refine((c) => c.trim().length > 0, { error: "a program, not an empty string" })
      .describe("The program, run with the checkout as its working directory: a name on the sandbox's PATH (`node`, `python3`) or a path in the checkout (`./tools/mcp-server`)."),
    args: z.array(word("an argument (a string)"), { error: "a list of arguments (strings)" }).max(50, { error: "at most 50 arguments" }).default([]).describe("Its arguments, passed as they are (no shell)."),
    roles: mcpRoles.describe(`The roles whose agents are offered the server's tools: ${ROLE_NAMES.join(", ")}.`),
    tools: mcpToolList.optional().describe("The server's tools the agents are offered, by name or glob; absent: the ones the server marks read-only (`readOnlyHint`)."),
  },
  { error: "a map with command, args, roles and tools" },
);

export type RepoMcpServerConfig = z.output<typeof stdioServer>;

export const mcpConfig = z
  .strictObject(
    {
      servers: z
        .record(z.string().regex(MCP_SERVER_NAME, { error: MCP_SERVER_NAME_RULE }).describe("a server name"), stdioServer, { error: "a map of server names to {command, args, roles, tools}" })
        .refine((servers) => Object.keys(servers).length <= 10, { error: "at most 10 servers" })
        .default({})
        .describe(
          "The repository's stdio MCP servers by name (letters, digits, `-`), each `{ command, args, roles, tools }`, e.g. `{ docs: { command: node, args: [tools/docs-mcp.js], roles: [planner] } }`: `command` is a program on the sandbox's PATH or a path in the checkout, `args` its arguments (no shell), `roles` the roles offered its tools, `tools` their names or globs (absent: the ones the server marks read-only). Each is started in the OS sandbox (bubblewrap: the checkout read-only unless the job writes and a writing role uses it, no network unless `sandbox.network`, no secrets in its environment) for jobs on the repository's own code only — never on a fork's pull request, and not where no sandbox runs. Its tools are offered as `mcp__<server>__<tool>` to the roles listed; a name the operator's servers already use is refused.",
        ),
    },
    { error: "a map with servers" },
  )
  .prefault({})
  .describe("MCP servers of the repository (the operator's remote servers are the operator's own setting).");
