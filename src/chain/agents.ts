/**
 * Agent definitions: markdown with YAML frontmatter (`name`, `description`, `role`, optional
 * `tools`, `model`, `maxTurns`, `thinking`); the body is the system prompt. See DESIGN.md §3.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { isListableTool, LISTABLE_TOOLS } from "../tools/registry.js";
import type { ToolName } from "../tools/registry.js";
import { issueToError, readDefinitionDirs, readFrontmatter, type LoadOptions } from "./definition-files.js";
import { DEFAULT_ROLE, isRoleName, ROLE_NAMES, type RoleName } from "../agent/roles.js";
import { DefinitionError, type AgentDefinition } from "./types.js";

// Two levels below the package root both as src/chain/agents.ts and as dist/chain/agents.js.
const PACKAGE_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const BUNDLED_AGENTS_DIR = path.join(PACKAGE_ROOT, "agents");
export const BUNDLED_PROMPTS_DIR = path.join(PACKAGE_ROOT, "prompts");

/** Agent and chain names: what config (`models`, `implement.chain`) and chain steps refer to. */
export const NAME_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;

const required = (what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? "is required" : `must be ${what}`;

const AGENT_KEYS = ["name", "description", "role", "tools", "model", "maxTurns", "thinking"] as const;

const AgentFrontmatter = z.strictObject({
  name: z
    .string({ error: required("a string") })
    .regex(NAME_PATTERN, { error: "must be lowercase letters, digits, '-' and '_', starting with a letter or digit" }),
  description: z.string({ error: required("a string") }).trim().min(1, { error: "must not be empty" }),
  role: z.string({ error: `must be one of the roles: ${ROLE_NAMES.join(", ")}` }).optional(),
  tools: z.union([z.string(), z.array(z.string())], { error: "must be a comma-separated string or a list of tool names" }).optional(),
  model: z.string({ error: "must be a string" }).trim().min(1, { error: "must not be empty" }).optional(),
  maxTurns: z
    .number({ error: "must be a positive integer" })
    .int({ error: "must be a positive integer" })
    .positive({ error: "must be a positive integer" })
    .optional(),
  // Extended thinking's token budget per reply; the API's floor is 1024.
  thinking: z
    .number({ error: "must be a token budget, a whole number of at least 1024" })
    .int({ error: "must be a token budget, a whole number of at least 1024" })
    .min(1024, { error: "must be at least 1024 tokens (the API's minimum thinking budget)" })
    .optional(),
});

function parseTools(value: string | string[], file: string): ToolName[] {
  const names = (typeof value === "string" ? value.split(",") : value).map((t) => t.trim());
  const listed = typeof value === "string" ? names.filter((t) => t !== "") : names;
  if (listed.length === 0) {
    throw new DefinitionError(file, "tools", "is empty; list at least one tool, or leave `tools` out for all the mode offers");
  }
  const tools: ToolName[] = [];
  for (const name of listed) {
    // Only the registry's listable tools; the others (result tools, skill, …) are offered by their own rules (DESIGN §4).
    if (!isListableTool(name)) throw new DefinitionError(file, "tools", `unknown tool "${name}" (known: ${LISTABLE_TOOLS.join(", ")})`);
    if (!tools.includes(name)) tools.push(name);
  }
  return tools;
}

function parseRole(value: string, file: string): RoleName {
  const role = value.trim();
  if (!isRoleName(role)) throw new DefinitionError(file, "role", `unknown role "${role}" (known: ${ROLE_NAMES.join(", ")})`);
  return role;
}

/** Parses one agent file; every problem is a DefinitionError naming `file` and the field. */
export function parseAgentFile(text: string, file: string): AgentDefinition {
  const { data, body } = readFrontmatter(text, file);
  const parsed = AgentFrontmatter.safeParse(data);
  if (!parsed.success) throw issueToError(file, parsed.error.issues, AGENT_KEYS);
  const fm = parsed.data;
  const prompt = body.trim();
  if (prompt === "") {
    throw new DefinitionError(file, "body", "the system prompt (the text after the frontmatter) is empty");
  }
  const agent: AgentDefinition = { name: fm.name, description: fm.description, prompt, file };
  if (fm.role !== undefined) agent.role = parseRole(fm.role, file);
  if (fm.tools !== undefined) agent.tools = parseTools(fm.tools, file);
  if (fm.model !== undefined) agent.model = fm.model;
  if (fm.maxTurns !== undefined) agent.maxTurns = fm.maxTurns;
  if (fm.thinking !== undefined) agent.thinking = fm.thinking;
  return agent;
}

/**
 * Loads agents from `dirs` in priority order (a repository's `.github/crewbot/agents/` first, then
 * BUNDLED_AGENTS_DIR): the first definition of a name wins. A missing dir is fine; two files of one
 * dir defining the same name are an error. Every agent comes out with a role: its own; else, when
 * it overrides an agent of a later dir, that agent's (a repository's `reviewer` written before
 * roles existed stays the reviewer); else DEFAULT_ROLE, which adds nothing to a read-only agent.
 */
export async function loadAgents(dirs: readonly string[], options: LoadOptions = {}): Promise<Map<string, AgentDefinition>> {
  const agents = new Map<string, AgentDefinition>();
  for (const layer of await readDefinitionDirs(dirs, options)) {
    const own = new Map<string, AgentDefinition>();
    for (const { file, text } of layer) {
      const agent = parseAgentFile(text, file);
      const twin = own.get(agent.name);
      if (twin) throw new DefinitionError(file, "name", `"${agent.name}" is already defined in ${twin.file}`);
      own.set(agent.name, agent);
    }
    for (const [name, agent] of own) {
      const first = agents.get(name);
      if (!first) agents.set(name, agent);
      else if (first.role === undefined && agent.role !== undefined) first.role = agent.role;
    }
  }
  for (const agent of agents.values()) agent.role ??= DEFAULT_ROLE;
  return agents;
}
