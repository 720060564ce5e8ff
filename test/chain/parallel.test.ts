import { describe, expect, it, afterEach } from "vitest";
import { BudgetTracker, DEFAULT_BUDGETS } from "../../src/agent/budget.js";
import type { AgentEvent } from "../../src/agent/events.js";
import type { AgentRunResult, RunAgentOptions } from "../../src/agent/types.js";
import { parseChainFile } from "../../src/chain/chains.js";
import { loadDefinitions } from "../../src/chain/definitions.js";
import { runChain, type RunChainOptions } from "../../src/chain/run-chain.js";
import { foldEvent, initialProgress } from "../../src/report/progress-state.js";
import { fakeClient, startFakeAnthropic, type FakeServer } from "../helpers/fake-anthropic.js";
import { chainOptions } from "./chain-fixture.js";

const THREE = `---
description: three scouts at once
---
1. parallel:
   - scout: Look at the API. {task}
   - scout: Look at the tests.
     Two lines of task.
   - scout: Look at the docs.
2. planner: Plan it. Scouts said:
   {previous}
   The API scout again: {output:scout}
`;

let fake: FakeServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function options(chainText: string, extra: Partial<RunChainOptions> = {}): Promise<RunChainOptions> {
  const { agents } = await loadDefinitions();
  return chainOptions({ chain: parseChainFile(chainText, "prompts/three.md", "three"), agents, ...extra });
}

describe("parsing parallel steps", () => {
  it("reads indented agent: task items, multi-line tasks included", () => {
    const chain = parseChainFile(THREE, "prompts/three.md", "three");
    expect(chain.steps[0]).toEqual({
      agent: "parallel",
      task: "",
      parallel: [
        { agent: "scout", task: "Look at the API. {task}" },
        { agent: "scout", task: "Look at the tests.\nTwo lines of task." },
        { agent: "scout", task: "Look at the docs." },
      ],
    });
    expect(chain.steps[1]!.agent).toBe("planner");
  });

  it.each([
    ["a worker item", "1. parallel:\n   - scout: a\n   - worker: b\n", /prompts\/x\.md: steps: line 1: step 1 \(parallel\): item 2 is the worker, which never runs in parallel/],
    ["nine items", `1. parallel:\n${Array.from({ length: 9 }, (_, i) => `   - scout: t${i}\n`).join("")}`, /has 9 items; at most 8/],
    ["no items", "1. parallel:\n2. scout: x\n", /step 1 \(parallel\): has no items/],
    ["a task on its line", "1. parallel: go\n   - scout: a\n", /not on its line/],
    ["a nested parallel", "1. parallel:\n   - parallel:\n     - scout: a\n", /do not nest/],
    ["an {output:} of no earlier step", "1. parallel:\n   - scout: a {output:planner}\n", /\{output:planner\} names no agent of an earlier step/],
  ])("refuses %s when the file is loaded, naming the file", (_, text, error) => {
    expect(() => parseChainFile(text, "prompts/x.md", "x")).toThrow(error);
  });
});

describe("running a parallel step", () => {
  it("has all three scouts' requests in flight together, then gives the planner their outputs under their headings", async () => {
    let held = 0;
    let releaseAll!: () => void;
    const allIn = new Promise<void>((resolve) => (releaseAll = resolve));
    fake = await startFakeAnthropic(async (request) => {
      const prompt = JSON.stringify(request.body.messages[0]);
      if (prompt.includes("Plan it.")) return { content: [{ type: "tool_use", name: "submit_plan", input: { goal: "g", steps: ["s"] } }] };
      // Held until all three are waiting: the test fails (times out with a clear reply) if they run one by one.
      if (++held === 3) releaseAll();
      const timeout = new Promise<string>((resolve) => setTimeout(() => resolve("timeout"), 5000).unref());
      if ((await Promise.race([allIn.then(() => "in"), timeout])) === "timeout") return { text: `only ${held} in flight` };
      const which = ["API", "tests", "docs"].find((w) => prompt.includes(`Look at the ${w}`))!;
      return { text: `REPORT-${which}` };
    });
    const events: AgentEvent[] = [];
    const result = await runChain(await options(THREE, { client: fakeClient(fake.url), emit: (e) => events.push(e) }));
    expect(result.error).toBeUndefined();
    expect(held).toBe(3);
    const planner = JSON.stringify(fake.requests.at(-1)!.body.messages[0]);
    const expected = "## scout: Look at the API. {task}\\n\\nREPORT-API\\n\\n## scout: Look at the tests. Two lines of task.\\n\\nREPORT-tests\\n\\n## scout: Look at the docs.\\n\\nREPORT-docs";
    expect(planner).toContain(`Scouts said:\\n${expected}`);
    expect(planner).toContain(`The API scout again: ${expected}`);
    // Every scout ran read-only with its own agent and tools.
    for (const r of fake.requests.slice(0, 3)) expect(r.body.tools.map((t: { name: string }) => t.name)).not.toContain("write");
    // The progress comment keeps the parallel agents on one line.
    const progress = events.reduce(foldEvent, initialProgress("job-1", "plan"));
    expect(events.find((e) => e.type === "step_start")).toEqual({
      type: "step_start",
      index: 0,
      agent: "scout + scout + scout",
      items: [
        { agent: "scout", task: "Look at the API. {task}" },
        { agent: "scout", task: "Look at the tests. Two lines of task." },
        { agent: "scout", task: "Look at the docs." },
      ],
    });
    // Each item's events say which item they came from; the step's own do not.
    const runStarts = events.filter((e) => e.type === "run_start");
    expect(runStarts.map((e) => e.item).sort()).toEqual([1, 2, 3, undefined]);
    expect(foldEvent(foldEvent(initialProgress("job-1", "plan"), events.find((e) => e.type === "step_start")!), { type: "run_start", agent: "scout", model: "m" } as AgentEvent).agent).toBe("scout + scout + scout");
    expect(progress.agent).toBe("planner");
  });

  it("runs at most four at a time, gives each an equal share of the job's turns, and fails the step naming the failed item, stopping the others", async () => {
    let running = 0;
    let most = 0;
    const calls: RunAgentOptions[] = [];
    const six = `1. parallel:\n${Array.from({ length: 6 }, (_, i) => `   - scout: item ${i}\n`).join("")}2. planner: {previous}\n`;
    const result = await runChain(
      await options(six, {
        budget: new BudgetTracker({ ...DEFAULT_BUDGETS, maxTurns: 30 }),
        runAgent: async (o): Promise<AgentRunResult> => {
          calls.push(o);
          running++;
          most = Math.max(most, running);
          const base = { turns: 1, usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, costUsd: 0, estimate: false, filesRead: [], filesChanged: [] };
          try {
            if (o.prompt.includes("item 1")) {
              await new Promise((r) => setTimeout(r, 20));
              return { ...base, stopReason: "error", text: "", error: "the model refused" };
            }
            // The others wait to be stopped (or finish when nobody stops them).
            await new Promise<void>((resolve) => {
              const t = setTimeout(resolve, 2000);
              o.signal?.addEventListener("abort", () => (clearTimeout(t), resolve()));
            });
            return o.signal?.aborted ? { ...base, stopReason: "aborted", text: "" } : { ...base, stopReason: "done", text: "ok" };
          } finally {
            running--;
          }
        },
      }),
    );
    expect(result.ok).toBe(false);
    expect(result.error).toBe('step 1 (parallel: scout "item 1"): the model refused');
    expect(most).toBe(4);
    // Four started; the failure stopped them and the last two never began.
    expect(calls).toHaveLength(4);
    expect(calls.map((c) => c.maxTurns)).toEqual([5, 5, 5, 5]);
    expect(calls.every((c) => c.signal?.aborted)).toBe(true);
  });
});
