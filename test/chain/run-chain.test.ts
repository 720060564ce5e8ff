import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { BudgetTracker, DEFAULT_BUDGETS } from "../../src/agent/budget.js";
import type { AgentEvent } from "../../src/agent/events.js";
import type { AgentRunResult, RunAgentOptions } from "../../src/agent/types.js";
import { loadDefinitions } from "../../src/chain/definitions.js";
import { chainMode, MAX_INLINE_PREVIOUS, runChain, type RunChainOptions } from "../../src/chain/run-chain.js";
import { checkStepOutput } from "../../src/jobs/step-results.js";
import { agentResult, chainOptions } from "./chain-fixture.js";

const done = agentResult;

async function setup(chainName: string, replies: Array<(o: RunAgentOptions) => AgentRunResult>, extra: Partial<RunChainOptions> = {}) {
  const { agents, chains } = await loadDefinitions();
  const chain = chains.get(chainName)!;
  const calls: RunAgentOptions[] = [];
  const events: AgentEvent[] = [];
  const base = await chainOptions({ chain, agents, task: "add {previous} literally", mode: chainMode(chain, agents), sandbox: { available: true } });
  const dir = base.workspace.root;
  const result = await runChain({
    ...base,
    emit: (e) => events.push(e),
    runAgent: async (o) => {
      calls.push(o);
      return replies[calls.length - 1]!(o);
    },
    ...extra,
  });
  return { result, calls, events, dir };
}

describe("runChain", () => {
  it("feeds each step's output to the next and keeps every agent but the worker read-only", async () => {
    const { result, calls } = await setup("implement", [() => done("scouted"), () => done("## Plan\n1. x"), () => done("[DONE:1]")]);
    expect(result).toMatchObject({ ok: true, stopReason: "done", output: "[DONE:1]" });
    expect(calls.map((c) => `${c.agent}:${c.toolContext.mode}:${c.tools.map((t) => t.name).includes("write")}`)).toEqual([
      "scout:read-only:false",
      "planner:read-only:false",
      "worker:write:true",
    ]);
    expect(calls[1]!.prompt).toContain("scouted");
    expect(calls[2]!.prompt).toContain("## Plan\n1. x");
    // The user's request is inserted once and never re-substituted.
    expect(calls[1]!.prompt).toContain("add {previous} literally");
  });

  it("never gives a read-only chain's agents write tools, whatever the mode asked", async () => {
    const { calls } = await setup("plan", [() => done("s"), () => done("## Plan\n1. x")], { mode: "write" });
    expect(calls.every((c) => c.toolContext.mode === "read-only" && !c.tools.some((t) => t.name === "edit"))).toBe(true);
  });

  it("stops at the first failing step and says which", async () => {
    const { result, calls, events } = await setup("implement", [
      () => done("s"),
      () => done("partial", { stopReason: "budget", budget: "maxCostUsd", error: "cost budget reached ($3.00)" }),
    ]);
    expect(calls).toHaveLength(2);
    expect(result).toMatchObject({ ok: false, stopReason: "budget", budget: "maxCostUsd", error: "step 2 (planner): cost budget reached ($3.00)" });
    expect(events.filter((e) => e.type === "step_end").map((e) => (e as { stopReason: string }).stopReason)).toEqual(["done", "budget"]);
  });

  it("fails a step that gave no output", async () => {
    const { result } = await setup("plan", [() => done("  ")]);
    expect(result).toMatchObject({ ok: false, error: "step 1 (scout) gave no output" });
  });

  it("hands a large previous output over as a file with a short pointer", async () => {
    const big = "x".repeat(MAX_INLINE_PREVIOUS + 1);
    const { calls } = await setup("plan", [() => done(big), () => done("## Plan\n1. x")]);
    const prompt = calls[1]!.prompt;
    expect(prompt).not.toContain(big);
    const file = /in the file (\S+); read it with the read tool/.exec(prompt)![1]!;
    expect(await readFile(file, "utf8")).toBe(big);
    expect(calls[1]!.toolContext.readRoots).toContain(calls[1]!.toolContext.artifactsDir);
  });

  it("uses the configured model per agent over the agent's own", async () => {
    const { calls } = await setup("plan", [() => done("s"), () => done("p")], { models: { planner: "claude-opus-5-5" } });
    expect(calls.map((c) => c.model)).toEqual(["claude-haiku-4-5", "claude-opus-5-5"]);
  });

  it("adds step context, e.g. a diff for the reviewer", async () => {
    const { calls } = await setup("review", [() => done("## Summary\nok")], {
      stepContext: async (step) => [{ source: "diff", text: `diff for ${step.agent}` }],
    });
    expect(calls[0]!.prompt).toMatch(/<context>[\s\S]*diff for reviewer[\s\S]*<\/context>/);
  });

  it("sends the reviewer, who has submit_review, its system prompt without the text fallback", async () => {
    const { calls } = await setup("review", [() => done("## Summary\nok")]);
    expect(calls[0]!.tools.map((t) => t.name)).toContain("submit_review");
    expect(calls[0]!.system).toContain("call `submit_review` once");
    expect(calls[0]!.system).not.toMatch(/Only if you have no `submit_review` tool|<!--/);
  });
});

describe("runChain: a job's step shape (a review's effort level)", () => {
  it("one look: the step gets only its role's result tool, no skills listed, its cap and a brief after the task", async () => {
    const skills = [{ name: "style", description: "house style", body: "Write tersely.", dir: "/tmp/skills/style", file: ".github/crewbot/skills/style/SKILL.md", files: [] }];
    const { calls } = await setup("review", [() => done("## Summary\nok")], {
      skills,
      proof: { budget: { max: 5, seconds: 60 }, base: { sha: "" }, workDir: "/tmp/proofs", proofs: [] },
      stepShape: (step) => (step.role === "reviewer" ? { look: true, maxTurns: 2, why: "review.effort: quick", brief: "One look only." } : undefined),
    });
    expect(calls[0]!.tools.map((t) => t.name)).toEqual(["submit_review"]);
    expect(calls[0]!.maxTurns).toBe(2);
    expect(calls[0]!.prompt).toMatch(/<task>[\s\S]*One look only\.\n<\/task>$/);
    expect(calls[0]!.prompt).not.toContain("house style");
  });

  it("without a shape the step keeps its agent's tools and cap; a shaped cap that stops the step is named by where it comes from", async () => {
    const plain = await setup("review", [() => done("## Summary\nok")]);
    expect(plain.calls[0]!.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["read", "grep", "bash", "submit_review"]));
    expect(plain.calls[0]!.maxTurns).toBe(25);
    const stopped = await setup("review", [() => done("partial", { stopReason: "budget", budget: "maxTurns", turns: 50, error: "turn budget reached (50 turns) for agent reviewer" })], {
      stepShape: () => ({ maxTurns: 50, why: "review.effort: deep" }),
    });
    expect(stopped.calls[0]!.maxTurns).toBe(50);
    expect(stopped.result.budgetReason).toBe("turn limit of the reviewer reached (50 turns, review.effort: deep)");
  });
});

describe("runChain hand-offs and results", () => {
  it("the bundled implement worker gets the scout's report and the plan, and complete_step only with a handler", async () => {
    const handler = async (n: number) => `Step ${n} ticked`;
    const { calls } = await setup("implement", [() => done("SCOUT REPORT"), () => done("## Implementation Plan\n1. x"), () => done("## Completed\nx")], {
      completeStep: (step) => (step.role === "worker" ? handler : undefined),
    });
    expect(calls[2]!.prompt).toContain("SCOUT REPORT");
    expect(calls[2]!.prompt).toContain("## Implementation Plan\n1. x");
    expect(calls[2]!.tools.map((t) => t.name)).toContain("complete_step");
    expect(calls[2]!.toolContext.completeStep).toBe(handler);
    expect(calls[1]!.tools.map((t) => t.name)).toContain("submit_plan");
    expect(calls[0]!.tools.map((t) => t.name)).not.toContain("submit_plan");
  });

  it("a planner whose text yields no plan fails the step with the reason; the worker never runs", async () => {
    // The job's parser of the planner's result, as every job gives it (runChain's checkOutput hook).
    const { result, calls, events } = await setup("implement", [() => done("s"), () => done("I would change the README and add a test.")], { checkOutput: checkStepOutput });
    expect(calls).toHaveLength(2);
    expect(result).toMatchObject({ ok: false, stopReason: "error", error: expect.stringMatching(/^step 2 \(planner\): the planner gave no plan: it did not call submit_plan/) });
    // The text is kept: in the step's result and its step_end event (the transcript).
    expect(result.output).toBe("I would change the README and add a test.");
    expect(events.find((e) => e.type === "step_end" && e.agent === "planner")).toMatchObject({ output: "I would change the README and add a test." });
  });

  it("a submission is the step's result, and step_end carries it", async () => {
    const submission = { tool: "submit_plan" as const, value: { goal: "g", steps: ["a"] }, text: "## Goal\ng\n\n## Plan\n1. a" };
    const { result, events } = await setup("plan", [() => done("s"), () => done(submission.text, { submission })]);
    expect(result).toMatchObject({ ok: true, output: submission.text });
    expect(result.steps[1]!.submission).toEqual(submission);
    expect(events.find((e) => e.type === "step_end" && e.agent === "planner")).toMatchObject({ submission });
  });

  it("a large output named by {output:<agent>} is handed over as a file", async () => {
    const big = "x".repeat(MAX_INLINE_PREVIOUS + 1);
    const { calls, dir } = await setup("implement", [() => done(big), () => done("## Plan\n1. x"), () => done("done")]);
    expect(calls[2]!.prompt).toMatch(/The scout's output is \d+ KB, too long to include here\. It is in the file .*step-2-output-scout\.md/);
    expect(await readFile(`${dir}/step-2-output-scout.md`, "utf8")).toBe(big);
  });

  it("says which budget stopped a step: an agent's own turn cap, or the job's", async () => {
    const own = await setup("plan", [() => done("partial", { stopReason: "budget", budget: "maxTurns", turns: 20, error: "turn budget reached (20 turns) for agent scout" })]);
    expect(own.result.budgetReason).toBe("turn limit of the scout reached (20 turns, its own maxTurns)");
    const budget = new BudgetTracker({ ...DEFAULT_BUDGETS, maxCostUsd: 1 });
    const job = await setup("plan", [() => done("partial", { stopReason: "budget", budget: "maxCostUsd", error: "cost budget reached ($1.00)" })], { budget });
    expect(job.result.budgetReason).toBe("cost budget reached ($1.00) for the job (budgets.maxCostUsd)");
  });
});
