/**
 * The tool registry (tools/registry.ts) is the one list of tools: each row is a tool of that name,
 * offered by toolsFor where its rule says, listable in an agent's `tools` exactly when the row
 * says so, and offered to every bundled agent that declares it.
 */
import { describe, expect, it } from "vitest";
import { BUNDLED_AGENTS_DIR, loadAgents, parseAgentFile } from "../../src/chain/agents.js";
import { roleOf, roleTools } from "../../src/agent/roles.js";
import { stepMode } from "../../src/chain/run-chain.js";
import { toolsFor } from "../../src/tools/index.js";
import { LISTABLE_TOOLS, TOOL_ENTRIES, TOOL_REGISTRY, type ToolsForOptions } from "../../src/tools/registry.js";
import { toolSpec } from "../../src/tools/schema.js";
import type { Mode, SandboxInfo } from "../../src/tools/types.js";
import type { ToolName } from "../../src/tools/registry.js";

const ON: SandboxInfo = { available: true };
const offeredNames = (mode: Mode, opts: Partial<ToolsForOptions> = {}) => toolsFor(mode, { trust: "trusted", sandbox: ON, ...opts }).tools.map((t) => t.name);

/** A step each tool must be offered to. Typed by ToolName: a registry row without one here does not compile. */
const OFFERED_TO: Record<ToolName, [Mode, Partial<ToolsForOptions>]> = {
  read: ["read-only", {}],
  ls: ["read-only", {}],
  find: ["read-only", {}],
  grep: ["read-only", {}],
  bash: ["read-only", {}],
  edit: ["write", {}],
  write: ["write", {}],
  skill: ["read-only", { hasSkills: true }],
  scratch_write: ["read-only", { scratch: true }],
  prove: ["read-only", { roleTools: roleTools("reviewer"), prove: true }],
  complete_step: ["write", { roleTools: roleTools("worker"), numberedPlan: true }],
  submit_plan: ["read-only", { roleTools: roleTools("planner") }],
  submit_review: ["read-only", { roleTools: roleTools("reviewer") }],
  submit_summary: ["read-only", { roleTools: roleTools("describer") }],
  submit_learnings: ["read-only", { roleTools: roleTools("learner") }],
  ask_user: ["read-only", { questions: true }],
};

const agentFile = (tools: string) => `---\nname: helper\ndescription: A helper.\ntools: ${tools}\n---\nHelp.\n`;

describe.each(TOOL_ENTRIES)("registry row %s", (name, entry) => {
  const [mode, opts] = OFFERED_TO[name];

  it("is a tool of that name with a strict, described schema", () => {
    for (const m of ["read-only", "write"] as const) expect(entry.make(m, ON).name).toBe(name);
    expect(toolSpec(entry.make(mode, ON)).input_schema).toMatchObject({ type: "object", additionalProperties: false });
  });

  it("is offered where its rule says, once, in registry order", () => {
    const offered = offeredNames(mode, opts);
    expect(offered.filter((n) => n === name)).toEqual([name]);
    const order: string[] = TOOL_ENTRIES.map(([n]) => n);
    expect(offered).toEqual([...offered].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
  });

  if (entry.listable) {
    it("is offered to an agent that declares it in `tools`, and to none that leaves it out", () => {
      expect(parseAgentFile(agentFile(name), "helper.md").tools).toEqual([name]);
      expect(offeredNames(mode, { ...opts, allow: [name] })).toContain(name);
      expect(offeredNames(mode, { ...opts, allow: LISTABLE_TOOLS.filter((n) => n !== name) })).not.toContain(name);
    });
  } else {
    it("cannot be listed in `tools`, and a `tools` list does not narrow it away", () => {
      expect(() => parseAgentFile(agentFile(name), "helper.md")).toThrow(new RegExp(`unknown tool "${name}"`));
      // Narrowed to nothing but the tool it requires, if any.
      expect(offeredNames(mode, { ...opts, allow: entry.requires === undefined ? [] : [entry.requires] })).toContain(name);
    });
  }

  if (entry.writes) {
    it("is never offered in read-only mode, even when declared", () => {
      const set = toolsFor("read-only", { trust: "trusted", sandbox: ON, ...opts, allow: [name] });
      expect(set.tools.map((t) => t.name)).not.toContain(name);
      expect(set.notes).toContain(`${name} is never offered in read-only mode (ignored).`);
    });
  }

  if (entry.requires !== undefined) {
    it("goes only where the tool it requires went", () => {
      const required = entry.requires!;
      expect(LISTABLE_TOOLS).toContain(required);
      expect(offeredNames(mode, { ...opts, allow: LISTABLE_TOOLS.filter((n) => n !== required) })).not.toContain(name);
    });
  }
});

it("the agents' `tools` lists take the registry's listable tools, and the error names them", () => {
  expect(LISTABLE_TOOLS).toEqual(["read", "ls", "find", "grep", "bash", "edit", "write"]);
  expect(() => parseAgentFile(agentFile("read, teleport"), "helper.md")).toThrow(`unknown tool "teleport" (known: ${LISTABLE_TOOLS.join(", ")})`);
  expect(Object.keys(TOOL_REGISTRY)).toEqual(TOOL_ENTRIES.map(([n]) => n));
});

it("every bundled agent is offered each tool it declares, in the mode it runs in (a writing tool only where it writes)", async () => {
  const agents = [...(await loadAgents([BUNDLED_AGENTS_DIR])).values()];
  expect(agents.length).toBeGreaterThan(0);
  for (const agent of agents) {
    const mode = stepMode("write", roleOf(agent));
    const offered = offeredNames(mode, { roleTools: roleTools(roleOf(agent)), allow: agent.tools });
    for (const tool of agent.tools ?? []) {
      if (mode === "read-only" && TOOL_REGISTRY[tool].writes) continue;
      expect(offered, `${agent.name} (${mode}) declares ${tool}`).toContain(tool);
    }
  }
});
