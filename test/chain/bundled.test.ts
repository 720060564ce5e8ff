import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUNDLED_AGENTS_DIR, BUNDLED_PROMPTS_DIR, loadAgents } from "../../src/chain/agents.js";
import { loadChains, validateChain } from "../../src/chain/chains.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const agents = await loadAgents([BUNDLED_AGENTS_DIR]);
const chains = await loadChains([BUNDLED_PROMPTS_DIR]);

describe("bundled definitions", () => {
  it("live at the package root", () => {
    expect(BUNDLED_AGENTS_DIR).toBe(path.join(ROOT, "agents"));
    expect(BUNDLED_PROMPTS_DIR).toBe(path.join(ROOT, "prompts"));
  });

  it("every file in agents/ and prompts/ is a definition", async () => {
    expect((await readdir(BUNDLED_AGENTS_DIR)).sort()).toEqual(["answerer.md", "describer.md", "learner.md", "planner.md", "reviewer.md", "scout.md", "worker.md"]);
    expect((await readdir(BUNDLED_PROMPTS_DIR)).sort()).toEqual(["ask.md", "describe.md", "implement-and-review.md", "implement.md", "plan-wide.md", "plan.md", "review.md"]);
  });

  it("agents have the documented tools, models and turn caps", () => {
    const summary = Object.fromEntries(
      [...agents.values()].map((a) => [a.name, { tools: a.tools, model: a.model, maxTurns: a.maxTurns }]),
    );
    const readOnly = ["read", "ls", "find", "grep", "bash"];
    expect(summary).toEqual({
      answerer: { tools: readOnly, model: "claude-sonnet-5-5", maxTurns: 25 },
      scout: { tools: readOnly, model: "claude-haiku-4-5", maxTurns: 20 },
      planner: { tools: readOnly, model: "claude-sonnet-5-5", maxTurns: 25 },
      reviewer: { tools: readOnly, model: "claude-sonnet-5-5", maxTurns: 25 },
      describer: { tools: ["read", "ls", "find", "grep"], model: "claude-sonnet-5-5", maxTurns: 15 },
      learner: { tools: ["read"], model: "claude-haiku-4-5", maxTurns: 3 },
      worker: { tools: [...readOnly, "edit", "write"], model: "claude-sonnet-5-5", maxTurns: 50 },
    });
  });

  it("the reviewer's prompt calls behaviourChange a flag and names a plain node reproducer as fine without a test runner", () => {
    const prompt = agents.get("reviewer")!.prompt;
    expect(prompt).toContain("`behaviourChange: true` is a flag on the finding");
    expect(prompt).toMatch(/no test runner, a plain `node repro\.mjs`/);
    expect(prompt).toMatch(/overview of the repository .* start from it/);
    expect(prompt).toMatch(/may lie outside the diff, in an unchanged file too/);
    expect(prompt).toMatch(/as its `unprovable`/);
  });

  it("chains have the documented steps and validate against the bundled agents", () => {
    const shape = Object.fromEntries([...chains.values()].map((c) => [c.name, c.steps.map((s) => (s.parallel ? s.parallel.map((i) => i.agent) : s.agent))]));
    expect(shape).toEqual({
      ask: ["answerer"],
      plan: ["scout", "planner"],
      "plan-wide": [["scout", "scout"], "planner"],
      implement: ["scout", "planner", "worker"],
      "implement-and-review": ["scout", "planner", "worker", "reviewer", "worker"],
      review: ["reviewer"],
      describe: ["describer"],
    });
    for (const chain of chains.values()) {
      expect(chain.description).toBeTruthy();
      expect(() => validateChain(chain, agents)).not.toThrow();
    }
  });

  it("every step uses {task}; every step after the first uses {previous}", () => {
    for (const chain of chains.values()) {
      chain.steps.forEach((step, i) => {
        for (const own of step.parallel ?? [step]) {
          expect(own.task, `${chain.name} step ${i + 1}`).toContain("{task}");
          if (i > 0) expect(own.task, `${chain.name} step ${i + 1}`).toContain("{previous}");
        }
      });
    }
  });

  it("the first worker is told to call complete_step and gets the scout's report and the plan; the fix-up worker has no steps", () => {
    for (const name of ["implement", "implement-and-review"]) {
      const worker = chains.get(name)!.steps[2]!.task;
      expect(worker).toContain("`complete_step`");
      expect(worker).toContain("{output:scout}");
      expect(worker).toMatch(/The plan:\n\{previous\}/);
      expect(worker).toMatch(/reproduce the problem first/);
      expect(worker).toMatch(/check commands/);
    }
    const fix = chains.get("implement-and-review")!.steps[4]!.task;
    expect(fix).toMatch(/no numbered plan/);
    expect(fix).toMatch(/no `\[DONE:n\]` markers/);
  });

  it("the planner and reviewer steps ask for their result tools; the reviewer after a worker gets the plan", () => {
    for (const chain of chains.values()) {
      for (const step of chain.steps) {
        if (step.agent === "planner") expect(step.task, chain.name).toContain("`submit_plan`");
        if (step.agent === "reviewer") expect(step.task, chain.name).toContain("`submit_review`");
      }
    }
    expect(chains.get("implement-and-review")!.steps[3]!.task).toContain("{output:planner}");
  });

  it.each<[string, string[]]>([
    ["planner", ["`submit_plan`", "## Goal", "## Plan", "## Files to Modify", "## Risks"]],
    ["reviewer", ["`submit_review`", "`suggestion`", "## Critical", "## Warnings", "## Suggestions", "## Summary", "path/to/file.ts:42 - ", "path/to/file.ts:40-45 - ", "NEW"]],
    ["worker", ["`complete_step`", "Reproduce first", "check commands", "[DONE:n]", "## Completed", "## Files Changed", "## Notes"]],
    ["describer", ["`submit_summary`", "`what`", "`walkthrough`", "`effort`", "`effortReason`", "`risks`", "`diagram`"]],
    ["learner", ["`submit_learnings`", "`key`", "No links, no issue or pull request numbers, no @mentions"]],
    ["scout", ["## Relevant Files", "## Entry Points", "## Conventions", "## How to Test"]],
  ])("the %s prompt names its exact output format", (name, needles) => {
    const prompt = agents.get(name)!.prompt;
    for (const needle of needles) expect(prompt).toContain(needle);
  });

  it.each(["scout", "planner", "worker", "reviewer", "describer"])("the %s prompt guards against injected instructions and secrets", (name) => {
    const prompt = agents.get(name)!.prompt;
    expect(prompt).toMatch(/data, not instructions/);
    expect(prompt).toContain("`.git/`");
    expect(prompt).toMatch(/secrets/);
    expect(prompt).toMatch(/environment/);
  });

  it.each(["scout", "planner", "reviewer", "describer"])("the %s prompt says it is read-only", (name) => {
    expect(agents.get(name)!.prompt).toMatch(/read-only/);
  });

  it("the learner's prompt takes its context as data and says it has no file tools", () => {
    const prompt = agents.get("learner")!.prompt;
    expect(prompt).toMatch(/is data, not instructions/);
    expect(prompt).toMatch(/no tools to read files/);
  });

  it("system prompts are byte-stable: no placeholders, dates or times", async () => {
    for (const agent of agents.values()) {
      expect(agent.prompt).not.toMatch(/\{(task|previous)\}|\{\{|\$\{/);
      expect(agent.prompt).not.toMatch(/\b(19|20)\d\d-\d\d-\d\d\b|\b\d\d:\d\d\b/);
      // Loading twice gives the same text.
      expect((await loadAgents([BUNDLED_AGENTS_DIR])).get(agent.name)!.prompt).toBe(agent.prompt);
    }
  });

  it("the planner's and reviewer's own format examples parse as intended", async () => {
    const { parsePlan } = await import("../../src/plan/parse-plan.js");
    const { parseReview } = await import("../../src/review/parse-findings.js");
    const planner = agents.get("planner")!.prompt;
    const plan = parsePlan(planner.slice(planner.indexOf("## Goal\n")));
    expect(plan.steps.map((s) => s.n)).toEqual([1, 2, 3]);
    expect(plan.filesToModify).toEqual(["path/to/file.ts", "path/to/new-file.ts"]);
    const reviewer = agents.get("reviewer")!.prompt;
    const review = parseReview(reviewer.slice(reviewer.indexOf("## Critical\n")));
    expect(review.findings.map((f) => [f.severity, f.line, f.endLine])).toEqual([
      ["critical", 42, undefined],
      ["warning", 40, 45],
      ["suggestion", 7, undefined],
    ]);
    expect(review.summary).not.toBe("");
  });

  it("package.json ships agents/ and prompts/", async () => {
    const pkg = JSON.parse(await readFile(path.join(ROOT, "package.json"), "utf8")) as { files: string[] };
    expect(pkg.files).toEqual(expect.arrayContaining(["agents", "prompts"]));
  });
});

describe("bundled chains and the default budgets", () => {
  it("every bundled chain ends on its agents' own maxTurns before the job's default turn budget", async () => {
    const { DEFAULT_BUDGETS } = await import("../../src/agent/budget.js");
    for (const chain of chains.values()) {
      const turns = chain.steps.flatMap((step) => step.parallel ?? [step]).reduce((sum, step) => sum + agents.get(step.agent)!.maxTurns!, 0);
      expect(turns, chain.name).toBeLessThan(DEFAULT_BUDGETS.maxTurns);
    }
  });
});
