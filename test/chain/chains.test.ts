import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUNDLED_PROMPTS_DIR } from "../../src/chain/agents.js";
import { loadChains, parseChainFile, renderTask, validateChain } from "../../src/chain/chains.js";
import { DefinitionError, type AgentDefinition } from "../../src/chain/types.js";
import { NOT_QUADRATIC_MS } from "../helpers/linear-time.js";

const steps = (text: string) => parseChainFile(text, "c.md", "c").steps;

describe("parseChainFile", () => {
  it("reads the description and numbered steps", () => {
    const text = "---\ndescription: Plan it\n---\n# Plan\n\nSome prose.\n\n1. scout: Look around.\n2. planner: Plan {task} using {previous}\n";
    expect(parseChainFile(text, "prompts/plan.md", "plan")).toEqual({
      name: "plan",
      description: "Plan it",
      file: "prompts/plan.md",
      steps: [
        { agent: "scout", task: "Look around." },
        { agent: "planner", task: "Plan {task} using {previous}" },
      ],
    });
  });

  it.each<[string, string, { agent: string; task: string }[]]>([
    ["bulleted steps, no frontmatter", "- scout: a\n- worker: b\n", [{ agent: "scout", task: "a" }, { agent: "worker", task: "b" }]],
    ["* and + bullets", "* scout: a\n+ worker: b\n", [{ agent: "scout", task: "a" }, { agent: "worker", task: "b" }]],
    [
      "indented continuation lines belong to the task, newlines kept",
      "1. scout: Look.\n\n   Request:\n   {task}\n     indented more\n2. planner: b\n",
      [{ agent: "scout", task: "Look.\n\nRequest:\n{task}\n  indented more" }, { agent: "planner", task: "b" }],
    ],
    [
      "a task that starts on the next line",
      "1. worker:\n   Do {task}.\n",
      [{ agent: "worker", task: "Do {task}." }],
    ],
    [
      "nested lists and an indented fence are part of the task",
      "1. worker: Do:\n   - x\n   ```\n1. not a step\n   ```\n2. reviewer: r\n",
      [{ agent: "worker", task: "Do:\n- x\n```\n1. not a step\n```" }, { agent: "reviewer", task: "r" }],
    ],
    [
      "headings and paragraphs are ignored and end a step",
      "# Title\nIntro.\n\n1. scout: a\n\nA paragraph, not part of the task.\n\n## More\n2. worker: b\n",
      [{ agent: "scout", task: "a" }, { agent: "worker", task: "b" }],
    ],
    [
      "a top-level code fence is ignored",
      "```\n1. scout: not a step\n```\n1. worker: b\n",
      [{ agent: "worker", task: "b" }],
    ],
    ["CRLF", "1. scout: a\r\n   more\r\n2. worker: b\r\n", [{ agent: "scout", task: "a\nmore" }, { agent: "worker", task: "b" }]],
  ])("%s", (_name, text, expected) => {
    expect(steps(text)).toEqual(expected);
  });

  it.each<[string, string, string, RegExp]>([
    ["no steps", "---\ndescription: d\n---\n# Nothing here\n", "steps", /no steps/],
    ["a list item that is not agent: task", "1. scout: a\n2. Then plan it\n", "steps", /line 2: expected "agent: task"/],
    ["an agent name in capitals", "1. Scout: a\n", "steps", /expected "agent: task"/],
    ["a step without a task", "1. scout:\n2. worker: b\n", "steps", /step 1 \(scout\) has no task/],
    ["line numbers count the frontmatter", "---\ndescription: d\n---\n1. scout: a\nOops\n- nope\n", "steps", /line 6:/],
    ["unknown frontmatter key", "---\nsteps: 3\n---\n1. scout: a\n", "steps", /unknown key/],
    ["broken frontmatter", "---\ndescription: [\n---\n1. scout: a\n", "frontmatter", /invalid YAML at line/],
  ])("%s", (_name, text, field, problem) => {
    try {
      parseChainFile(text, "prompts/c.md", "c");
    } catch (error) {
      expect(error).toBeInstanceOf(DefinitionError);
      expect((error as DefinitionError).file).toBe("prompts/c.md");
      expect((error as DefinitionError).field).toBe(field);
      expect((error as Error).message).toMatch(problem);
      return;
    }
    throw new Error("expected a DefinitionError");
  });

  it("reads a chain of 10,000 steps in linear time", () => {
    const started = performance.now();
    expect(steps(`1. scout: a {task}\n${"1. planner: {output:scout}\n".repeat(10_000)}`)).toHaveLength(10_001);
    expect(performance.now() - started).toBeLessThan(NOT_QUADRATIC_MS);
  });

  it("rejects a chain name that config could not refer to", () => {
    expect(() => parseChainFile("1. scout: a", "My Chain.md", "My Chain")).toThrow(/My Chain\.md: name: /);
  });
});

describe("validateChain", () => {
  const agents = new Map<string, AgentDefinition>(
    ["scout", "planner"].map((name) => [name, { name, description: name, prompt: "p", file: `${name}.md` }]),
  );

  it("accepts known agents", () => {
    expect(() => validateChain(parseChainFile("1. scout: a\n2. planner: b", "c.md", "c"), agents)).not.toThrow();
  });

  it("names the chain file and the unknown agent", () => {
    const chain = parseChainFile("1. scout: a\n2. plannr: b", ".github/crewbot/prompts/mine.md", "mine");
    expect(() => validateChain(chain, agents)).toThrow(
      '.github/crewbot/prompts/mine.md: steps: step 2: unknown agent "plannr" (known: planner, scout)',
    );
  });
});

describe("renderTask", () => {
  it.each<[string, { task: string; previous?: string }, string]>([
    ["Do {task}. Context: {previous}", { task: "X", previous: "Y" }, "Do X. Context: Y"],
    ["{task} and {task}", { task: "X" }, "X and X"],
    ["no previous: {previous}|", { task: "X" }, "no previous: |"],
    ["{task}", { task: "literal {previous} and {task}", previous: "SECRET" }, "literal {previous} and {task}"],
    ["{previous}", { task: "T", previous: "says {task}" }, "says {task}"],
    ["{task}", { task: "costs $& and $1 and $$" }, "costs $& and $1 and $$"],
    ["{other} {Task} { task }", { task: "X" }, "{other} {Task} { task }"],
  ])("%j", (template, values, expected) => {
    expect(renderTask(template, values)).toBe(expected);
  });

  const outputs = new Map([
    ["scout", "report mentions {output:planner} and {task}"],
    ["planner", "the plan"],
  ]);
  it.each<[string, string]>([
    ["Plan: {output:planner}\nScout: {output:scout}", "Plan: the plan\nScout: report mentions {output:planner} and {task}"],
    ["{previous}|{output:planner}", "P|the plan"],
    ["never ran: {output:reviewer}|", "never ran: |"],
    ["{output:Planner} {output:} {output: scout}", "{output:Planner} {output:} {output: scout}"],
  ])("{output:<agent>} in one pass: %j", (template, expected) => {
    expect(renderTask(template, { task: "T", previous: "P", outputs })).toBe(expected);
  });
});

describe("{output:<agent>} when the chain file is loaded", () => {
  it("names an agent of an earlier step, or the file is refused naming the step", () => {
    const ok = parseChainFile("1. scout: a {task}\n2. planner: {previous}\n3. worker: {output:scout} {output:planner}", "c.md", "c");
    expect(ok.steps[2]!.task).toBe("{output:scout} {output:planner}");
    expect(() => parseChainFile("1. scout: a\n2. worker: {output:reviewer}", ".github/crewbot/prompts/mine.md", "mine")).toThrow(
      ".github/crewbot/prompts/mine.md: steps: step 2 (worker): {output:reviewer} names no agent of an earlier step (earlier steps: scout)",
    );
    expect(() => parseChainFile("1. scout: {output:scout}", "c.md", "c")).toThrow(/step 1 \(scout\): \{output:scout\} names no agent of an earlier step \(it is the first step\)/);
  });
});

describe("loadChains", () => {
  let tmp: string;
  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "crewbot-chains-"));
  });
  afterEach(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it("layers a repository's chains over the bundled ones by file name", async () => {
    const repo = path.join(tmp, "prompts");
    await mkdir(repo);
    await writeFile(path.join(repo, "review.md"), "1. reviewer: Be strict. {task}\n");
    await writeFile(path.join(repo, "docs.md"), "1. scout: Find the docs.\n");
    const chains = await loadChains([repo, BUNDLED_PROMPTS_DIR]);
    expect([...chains.keys()].sort()).toEqual(["ask", "describe", "docs", "implement", "implement-and-review", "plan", "plan-wide", "review"]);
    expect(chains.get("review")?.steps).toEqual([{ agent: "reviewer", task: "Be strict. {task}" }]);
    expect(chains.get("plan")?.file).toBe(path.join(BUNDLED_PROMPTS_DIR, "plan.md"));
  });

  it("names repository files relative to confineTo", async () => {
    const repo = path.join(tmp, ".github/crewbot/prompts");
    await mkdir(repo, { recursive: true });
    await writeFile(path.join(repo, "empty.md"), "# nothing\n");
    await expect(loadChains([repo, BUNDLED_PROMPTS_DIR], { confineTo: tmp })).rejects.toThrow(
      /^\.github\/crewbot\/prompts\/empty\.md: steps: no steps/,
    );
  });
});
