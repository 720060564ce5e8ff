/**
 * The names the model sees for MCP tools: `mcp__<server>__<tool>`, within the Messages API's
 * tool-name pattern. Made the same way every time from the server's and the tool's names, so a
 * transcript names a tool the same in every job; two tools that come out the same are both refused
 * (which one would win is no rule a person can predict).
 */
export const MCP_PREFIX = "mcp__";
/** The API's pattern for a tool name. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_NAME = 64;

/** `mcp__<server>__<tool>`: characters outside the pattern become `_`, the whole cut to 64. */
export function mcpToolName(server: string, tool: string): string {
  const clean = (text: string) => text.replace(/[^a-zA-Z0-9_-]/g, "_");
  return `${MCP_PREFIX}${clean(server)}__${clean(tool)}`.slice(0, MAX_NAME);
}

export const isMcpToolName = (name: string): boolean => name.startsWith(MCP_PREFIX);

/**
 * The model-facing name of each tool of one server, by its own name; `refused` lists the tools
 * left out because another tool of the server (or a built-in tool) came out with the same name.
 */
export function nameTools(server: string, tools: readonly string[], taken: ReadonlySet<string> = new Set()): { names: Map<string, string>; refused: string[] } {
  const byName = new Map<string, string[]>();
  for (const tool of new Set(tools)) {
    const name = mcpToolName(server, tool);
    byName.set(name, [...(byName.get(name) ?? []), tool]);
  }
  const names = new Map<string, string>();
  const refused: string[] = [];
  for (const [name, owners] of byName) {
    if (owners.length === 1 && !taken.has(name)) names.set(owners[0]!, name);
    else refused.push(...owners);
  }
  return { names, refused: refused.sort() };
}
