/**
 * `mcp.servers` (DESIGN §5): a repository's stdio MCP servers. Every bad value is a problem naming
 * its key, unknown keys are errors, and roles are the role table's.
 */
import { describe, expect, it } from "vitest";
import { ROLE_NAMES } from "../../src/agent/roles.js";
import { validateConfig } from "../../src/config/validate.js";

function problemsOf(input: unknown): string[] {
  const result = validateConfig(input);
  if (result.ok) throw new Error(`expected problems, got a valid config: ${JSON.stringify(result.config)}`);
  return result.problems;
}

describe("mcp.servers", () => {
  it("defaults to no servers", () => {
    const result = validateConfig({});
    expect(result.ok && result.config.mcp).toEqual({ servers: {} });
  });

  it("accepts a server as written, args defaulting to none and tools absent (the read-only ones)", () => {
    const result = validateConfig({ mcp: { servers: { docs: { command: "node", roles: ["planner", "scout"] }, "db-2": { command: "./bin/mcp", args: ["--read-only"], roles: ["reviewer"], tools: ["query", "list_*"] } } } });
    expect(result.ok && result.config.mcp.servers).toEqual({
      docs: { command: "node", args: [], roles: ["planner", "scout"] },
      "db-2": { command: "./bin/mcp", args: ["--read-only"], roles: ["reviewer"], tools: ["query", "list_*"] },
    });
  });

  it.each<[string, unknown, string[]]>([
    ["a role not in the table", { docs: { command: "node", roles: ["admin"] } }, [`\`mcp.servers.docs.roles[0]\`: expected one of ${ROLE_NAMES.join(", ")}, got "admin"`]],
    ["no roles", { docs: { command: "node", roles: [] } }, ["`mcp.servers.docs.roles`: expected at least one role, got a list"]],
    ["roles missing", { docs: { command: "node" } }, [`\`mcp.servers.docs.roles\`: expected a list of roles (${ROLE_NAMES.join(", ")}), got nothing (an empty value)`]],
    ["an empty command", { docs: { command: " ", roles: ["scout"] } }, ['`mcp.servers.docs.command`: expected a program, not an empty string, got " "']],
    ["args as one string", { docs: { command: "node", args: "x.js", roles: ["scout"] } }, ['`mcp.servers.docs.args`: expected a list of arguments (strings), got "x.js"']],
    ["an empty tool glob", { docs: { command: "node", roles: ["scout"], tools: [""] } }, ['`mcp.servers.docs.tools[0]`: expected a tool name or glob, not an empty string, got ""']],
    ["an unknown key of a server", { docs: { command: "node", roles: ["scout"], env: { A: "1" } } }, ["`mcp.servers.docs.env`: unknown key; expected one of command, args, roles, tools"]],
    ["an unknown key of mcp", { docs: {} }, ["`mcp.docs`: unknown key; expected one of servers"]],
  ])("%s is a problem naming the key", (_name, servers, problems) => {
    const input = _name === "an unknown key of mcp" ? { mcp: servers } : { mcp: { servers } };
    expect(problemsOf(input)).toEqual(problems);
  });

  it("a server's name follows the operator's rule (no '_', so tool names split one way)", () => {
    const problems = problemsOf({ mcp: { servers: { my_docs: { command: "node", roles: ["scout"] } } } });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("mcp.servers");
    expect(problems[0]).toContain("a server's name is 1 to 24 letters, digits or '-'");
  });

  it("refuses more than 10 servers", () => {
    const servers = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`s${i}`, { command: "node", roles: ["scout"] }]));
    expect(problemsOf({ mcp: { servers } })[0]).toMatch(/^`mcp\.servers`: expected at most 10 servers/);
  });
});
