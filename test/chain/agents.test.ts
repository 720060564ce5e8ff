import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUNDLED_AGENTS_DIR, loadAgents, parseAgentFile } from "../../src/chain/agents.js";
import { DefinitionError } from "../../src/chain/types.js";
import { NOT_QUADRATIC_MS } from "../helpers/linear-time.js";

const agent = (frontmatter: string, body = "You are helpful.") => `---\n${frontmatter}\n---\n${body}\n`;

function definitionError(fn: () => unknown): DefinitionError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return error as DefinitionError;
  }
  throw new Error("expected a DefinitionError");
}

describe("parseAgentFile", () => {
  it("reads every field", () => {
    const text = agent("name: fixer\ndescription: Fixes things\ntools: read, grep ,bash\nmodel: claude-haiku-4-5\nmaxTurns: 7", "\n\n  Line 1\n\n  Line 2  \n\n");
    expect(parseAgentFile(text, "fixer.md")).toEqual({
      name: "fixer",
      description: "Fixes things",
      tools: ["read", "grep", "bash"],
      model: "claude-haiku-4-5",
      maxTurns: 7,
      prompt: "Line 1\n\n  Line 2",
      file: "fixer.md",
    });
  });

  it("keeps the body byte-exact apart from surrounding whitespace", () => {
    const body = "# Role\r\n\r\nUse `x`  \r\n\t- {task} stays {previous}\r\n---\r\nafter a rule";
    expect(parseAgentFile(`---\r\nname: a\r\ndescription: d\r\n---\r\n${body}\r\n`, "a.md").prompt).toBe(body);
  });

  it("accepts tools as a list, drops duplicates, leaves optional fields out", () => {
    expect(parseAgentFile(agent("name: a\ndescription: d\ntools: [read, edit, read]"), "a.md")).toEqual({
      name: "a",
      description: "d",
      tools: ["read", "edit"],
      prompt: "You are helpful.",
      file: "a.md",
    });
    expect(parseAgentFile(agent("name: a\ndescription: d"), "a.md")).not.toHaveProperty("tools");
  });

  it.each<[string, string, string, RegExp]>([
    ["broken YAML names frontmatter and the line", agent("name: a\ndescription: d\ntools: [read\nmodel: x"), "frontmatter", /line \d+/],
    ["duplicate keys", agent("name: a\nname: b\ndescription: d"), "frontmatter", /line 3.*unique/i],
    ["frontmatter that is not a mapping", agent("- a\n- b"), "frontmatter", /mapping/],
    ["a JavaScript frontmatter is refused", "---js\n{ name: 'a' }\n---\nbody", "frontmatter", /only YAML/],
    ["missing name", agent("description: d"), "name", /required/],
    ["no frontmatter at all", "Just a prompt.", "name", /required/],
    ["bad name", agent("name: My Agent\ndescription: d"), "name", /lowercase/],
    ["missing description", agent("name: a"), "description", /required/],
    ["empty description", agent("name: a\ndescription: '  '"), "description", /empty/],
    ["unknown tool", agent("name: a\ndescription: d\ntools: read, writ"), "tools", /unknown tool "writ"/],
    ["unknown tool in a list", agent("name: a\ndescription: d\ntools: [read, Bash]"), "tools", /"Bash"/],
    ["tools of the wrong type", agent("name: a\ndescription: d\ntools: 3"), "tools", /comma-separated/],
    ["empty tools", agent("name: a\ndescription: d\ntools: ''"), "tools", /empty/],
    ["empty tools list", agent("name: a\ndescription: d\ntools: []"), "tools", /empty/],
    ["maxTurns not an integer", agent("name: a\ndescription: d\nmaxTurns: 2.5"), "maxTurns", /positive integer/],
    ["maxTurns zero", agent("name: a\ndescription: d\nmaxTurns: 0"), "maxTurns", /positive integer/],
    ["maxTurns as a string", agent("name: a\ndescription: d\nmaxTurns: '5'"), "maxTurns", /positive integer/],
    ["model not a string", agent("name: a\ndescription: d\nmodel: 4"), "model", /string/],
    ["unknown key", agent("name: a\ndescription: d\ntemperature: 0.2"), "temperature", /unknown key/],
    ["empty body", agent("name: a\ndescription: d", "  \n\n "), "body", /empty/],
  ])("%s", (_name, text, field, problem) => {
    const error = definitionError(() => parseAgentFile(text, "agents/x.md"));
    expect(error.file).toBe("agents/x.md");
    expect(error.field).toBe(field);
    expect(error.message).toMatch(problem);
    expect(error.message.startsWith(`agents/x.md: ${field}: `)).toBe(true);
  });

  it("reports YAML errors with the file's own line number", () => {
    const error = definitionError(() => parseAgentFile("---\nname: a\ndescription: d\nbad: [\n---\nbody", "x.md"));
    expect(error.field).toBe("frontmatter");
    expect(error.message).toMatch(/line [45]\b/);
    const dup = definitionError(() => parseAgentFile("\uFEFF---\nname: a\ndescription: d\nname: b\n---\nbody", "x.md"));
    expect(dup.message).toMatch(/line 4\b/);
  });
});

describe("frontmatter", () => {
  it("refuses one longer than 8 KB, naming the file, in linear time (64 KB of blank lines, closed or not)", () => {
    for (const text of [`---\n${"\n".repeat(65_536)}---\nbody`, `---\n${"\r\n".repeat(32_768)}`]) {
      const started = performance.now();
      const error = definitionError(() => parseAgentFile(text, "agents/x.md"));
      expect(performance.now() - started).toBeLessThan(NOT_QUADRATIC_MS);
      expect(error.message).toMatch(/^agents\/x\.md: frontmatter: longer than 8 KB \(\d+ characters\)/);
    }
  });

  it("reads one of just under 8 KB", () => {
    const description = "d".repeat(8 * 1024 - 40);
    expect(parseAgentFile(agent(`name: a\ndescription: ${description}`), "a.md").description).toBe(description);
  });
});

describe("loadAgents", () => {
  let tmp: string;
  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "crewbot-agents-"));
  });
  afterEach(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  async function put(file: string, text: string) {
    await mkdir(path.dirname(path.join(tmp, file)), { recursive: true });
    await writeFile(path.join(tmp, file), text);
  }

  it("layers a repository's agents over the bundled ones: first by name wins", async () => {
    await put("repo/.github/crewbot/agents/planner.md", agent("name: planner\ndescription: Our planner", "Plan our way."));
    await put("repo/.github/crewbot/agents/docs.md", agent("name: docs\ndescription: Writes docs"));
    await put("repo/.github/crewbot/agents/notes.txt", "not an agent");
    const agents = await loadAgents([path.join(tmp, "repo/.github/crewbot/agents"), BUNDLED_AGENTS_DIR]);
    expect([...agents.keys()].sort()).toEqual(["answerer", "describer", "docs", "learner", "planner", "reviewer", "scout", "worker"]);
    expect(agents.get("planner")?.prompt).toBe("Plan our way.");
    expect(agents.get("planner")?.file).toBe(path.join(tmp, "repo/.github/crewbot/agents/planner.md"));
    expect(agents.get("worker")?.file).toBe(path.join(BUNDLED_AGENTS_DIR, "worker.md"));
  });

  it("the definition's name counts, not the file name", async () => {
    await put("a/whatever.md", agent("name: worker\ndescription: Ours"));
    const agents = await loadAgents([path.join(tmp, "a"), BUNDLED_AGENTS_DIR]);
    expect(agents.get("worker")?.description).toBe("Ours");
  });

  it("a missing dir is fine", async () => {
    const agents = await loadAgents([path.join(tmp, "nope"), path.join(tmp, "also-nope")]);
    expect(agents.size).toBe(0);
  });

  it("a broken file fails the load, naming the file and field", async () => {
    await put("a/bad.md", agent("name: a\ndescription: d\ntools: [read"));
    await expect(loadAgents([path.join(tmp, "a")])).rejects.toThrow(`${path.join(tmp, "a/bad.md")}: frontmatter: invalid YAML at line`);
  });

  it("two files of one dir with the same name are an error", async () => {
    await put("a/one.md", agent("name: a\ndescription: d"));
    await put("a/two.md", agent("name: a\ndescription: d"));
    await expect(loadAgents([path.join(tmp, "a")])).rejects.toThrow(/two\.md: name: "a" is already defined in .*one\.md/);
  });

  it("skips README.md and symlinked files", async () => {
    await put("a/README.md", "# Our agents\n");
    await put("secret.md", agent("name: leak\ndescription: d"));
    await mkdir(path.join(tmp, "a"), { recursive: true });
    await symlink(path.join(tmp, "secret.md"), path.join(tmp, "a/leak.md"));
    expect((await loadAgents([path.join(tmp, "a")])).size).toBe(0);
  });

  it("confineTo: errors name repository files relative to the root", async () => {
    await put("repo/.github/crewbot/agents/bad.md", agent("name: Bad\ndescription: d"));
    await expect(
      loadAgents([path.join(tmp, "repo/.github/crewbot/agents"), BUNDLED_AGENTS_DIR], { confineTo: path.join(tmp, "repo") }),
    ).rejects.toThrow(/^\.github\/crewbot\/agents\/bad\.md: name: /);
  });

  it("confineTo: a repository dir that is a symlink out of the repository is refused", async () => {
    await put("outside/x.md", agent("name: x\ndescription: d"));
    await mkdir(path.join(tmp, "repo/.github/crewbot"), { recursive: true });
    await symlink(path.join(tmp, "outside"), path.join(tmp, "repo/.github/crewbot/agents"));
    await expect(
      loadAgents([path.join(tmp, "repo/.github/crewbot/agents")], { confineTo: path.join(tmp, "repo") }),
    ).rejects.toThrow(/\.github\/crewbot\/agents: dir: points outside the repository/);
    // The bundled dir, outside the root, is trusted as before.
    expect((await loadAgents([BUNDLED_AGENTS_DIR], { confineTo: path.join(tmp, "repo") })).size).toBe(7);
  });

  it("a path that is a file, not a dir, is an error", async () => {
    await put("file", "x");
    await expect(loadAgents([path.join(tmp, "file")])).rejects.toThrow(/dir: is not a directory/);
  });
});
