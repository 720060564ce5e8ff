import { describe, expect, it } from "vitest";
import { summarizeArgs, toolsFor } from "../../src/tools/index.js";
import { toolSpec } from "../../src/tools/schema.js";
import type { SandboxInfo } from "../../src/tools/types.js";
import type { ToolName } from "../../src/tools/registry.js";

const ON: SandboxInfo = { available: true };
const OFF: SandboxInfo = { available: false, reason: "user namespaces are disabled" };
const names = (mode: "read-only" | "write", sandbox: SandboxInfo, allow?: ToolName[]) =>
  toolsFor(mode, { trust: "trusted", sandbox, ...(allow ? { allow } : {}) }).tools.map((t) => t.name);

describe("toolsFor", () => {
  it("plan mode with a sandbox: read-only tools and bash, never edit/write", () => {
    expect(names("read-only", ON)).toEqual(["read", "ls", "find", "grep", "bash"]);
  });

  it("plan mode never has edit/write, even when the agent's tools list asks for them", () => {
    const set = toolsFor("read-only", { trust: "trusted", sandbox: ON, allow: ["read", "edit", "write", "bash"] });
    expect(set.tools.map((t) => t.name)).toEqual(["read", "bash"]);
    expect(set.notes.join("\n")).toMatch(/edit is never offered in read-only mode/);
  });

  it("plan mode without a sandbox has no bash, and says why", () => {
    const set = toolsFor("read-only", { trust: "trusted", sandbox: OFF, allow: ["read", "bash"] });
    expect(set.tools.map((t) => t.name)).toEqual(["read"]);
    expect(set.notes.join("\n")).toMatch(/bash is not offered.*user namespaces are disabled/);
  });

  it("write mode has all seven; without a sandbox no bash (says why) unless the operator allowed it", () => {
    expect(names("write", ON)).toEqual(["read", "ls", "find", "grep", "bash", "edit", "write"]);
    const closed = toolsFor("write", { trust: "trusted", sandbox: OFF });
    expect(closed.tools.map((t) => t.name)).toEqual(["read", "ls", "find", "grep", "edit", "write"]);
    expect(closed.notes.join("\n")).toMatch(/bash is not offered: it needs the OS sandbox/);
    const allowed = toolsFor("write", { trust: "trusted", sandbox: { ...OFF, allowUnsandboxed: true } });
    expect(allowed.tools.map((t) => t.name)).toContain("bash");
    expect(allowed.notes.join("\n")).toMatch(/WITHOUT an OS sandbox.*CREWBOT_ALLOW_UNSANDBOXED=1/);
  });

  it("allow only narrows", () => {
    expect(names("write", ON, ["read", "grep"])).toEqual(["read", "grep"]);
    expect(names("write", ON, [])).toEqual([]);
    const set = toolsFor("write", { trust: "trusted", sandbox: ON, allow: ["read", "teleport"] });
    expect(set.tools.map((t) => t.name)).toEqual(["read"]);
    expect(set.notes.join("\n")).toMatch(/Unknown tool "teleport"/);
  });

  it("marks read-only tools, and bash as not read-only in both modes", () => {
    for (const mode of ["read-only", "write"] as const) {
      for (const t of toolsFor(mode, { trust: "trusted", sandbox: ON }).tools) {
        expect(t.readOnly, `${mode} ${t.name}`).toBe(["read", "ls", "find", "grep"].includes(t.name));
      }
    }
  });

  it("describes bash differently in plan mode, write mode and without a sandbox", () => {
    const desc = (mode: "read-only" | "write", s: SandboxInfo) => toolsFor(mode, { trust: "trusted", sandbox: s }).tools.find((t) => t.name === "bash")?.description;
    expect(desc("read-only", ON)).toMatch(/read-only sandbox/);
    expect(desc("write", ON)).toMatch(/writable except \.git/);
    expect(desc("write", { ...OFF, allowUnsandboxed: true })).toMatch(/without an OS sandbox/);
    expect(desc("write", OFF)).toBeUndefined();
  });

  it("every tool has a strict object schema with described fields", () => {
    for (const t of toolsFor("write", { trust: "trusted", sandbox: ON }).tools) {
      const spec = toolSpec(t);
      expect(spec.input_schema, t.name).toMatchObject({ type: "object", additionalProperties: false });
      for (const [field, s] of Object.entries(spec.input_schema.properties as Record<string, { description?: string }>)) {
        expect(s.description, `${t.name}.${field}`).toBeTruthy();
      }
      expect(t.schema.safeParse({ path: "a", pattern: "a", command: "a", content: "", oldText: "a", newText: "", bogus: 1 }).success).toBe(false);
    }
  });
});

describe("summarizeArgs", () => {
  it.each([
    ["read", { path: "src/a.ts" }, "read src/a.ts"],
    ["read", { path: "src/a.ts", offset: 120 }, "read src/a.ts:120"],
    ["ls", {}, "ls ."],
    ["find", { pattern: "**/*.ts", path: "src" }, "find **/*.ts in src"],
    ["grep", { pattern: "TODO", glob: "*.ts" }, 'grep "TODO" (*.ts)'],
    ["bash", { command: "npm test" }, "bash npm test"],
    ["bash", { command: "cd x &&\n  npm\ttest" }, "bash cd x && npm test"],
    ["edit", { path: "a.ts", oldText: "x", newText: "y" }, "edit a.ts"],
    ["write", { path: "b.ts", content: "..." }, "write b.ts"],
    ["read", null, "read ?"],
    ["prove", { finding: 1, command: "node --test t.mjs", files: [] }, "prove finding 1: node --test t.mjs"],
  ])("%s %j → %s", (name, input, expected) => {
    expect(summarizeArgs(name, input)).toBe(expected);
  });

  it("cuts long commands to about 80 characters, on one line", () => {
    const s = summarizeArgs("bash", { command: `echo ${"x".repeat(200)}\necho y` });
    expect(s.length).toBeLessThanOrEqual(80);
    expect(s.endsWith("…")).toBe(true);
    expect(s).not.toMatch(/\n/);
  });
});
