import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/events.js";
import { foldEvent, initialProgress, progressFromEvents } from "../../src/report/progress-state.js";
import type { ProgressState } from "../../src/report/types.js";

const start = initialProgress("job-1", "implement");
const fold = (events: AgentEvent[], from: ProgressState = start) => events.reduce(foldEvent, from);
const usage = (input: number, output: number, costUsd: number, estimate = false): AgentEvent => ({
  type: "usage",
  agent: "scout",
  usage: { input, output, cacheRead: 10, cacheWrite: 0 },
  costUsd,
  estimate,
});

describe("foldEvent", () => {
  it.each<[string, AgentEvent[], Partial<ProgressState>]>([
    ["a chain announces its length", [{ type: "chain_start", chain: "plan", steps: ["scout", "planner"] }], { step: { index: 0, total: 2 } }],
    [
      "a step names the agent, 1-based",
      [
        { type: "chain_start", chain: "plan", steps: ["scout", "planner"] },
        { type: "step_start", index: 1, agent: "planner" },
      ],
      { agent: "planner", step: { index: 2, total: 2 } },
    ],
    ["a lone agent run names the agent", [{ type: "run_start", agent: "reviewer", model: "m", tools: [] }], { agent: "reviewer" }],
    [
      "turns and tool calls add up over the job",
      [
        { type: "turn_start", agent: "scout", turn: 1 },
        { type: "tool_start", agent: "scout", id: "a", name: "read", args: "src/a.ts" },
        { type: "tool_end", agent: "scout", id: "a", name: "read", ok: true, ms: 3, output: "" },
        { type: "step_start", index: 1, agent: "planner" },
        { type: "turn_start", agent: "planner", turn: 1 },
        { type: "tool_start", agent: "planner", id: "b", name: "grep", args: "TODO" },
      ],
      { turn: 2, toolCalls: 2, lastTool: "grep TODO", agent: "planner", step: { index: 2, total: 2 } },
    ],
    [
      "a new step forgets the previous step's tool",
      [
        { type: "tool_start", agent: "scout", id: "a", name: "read", args: "src/a.ts" },
        { type: "step_start", index: 1, agent: "planner" },
      ],
      { toolCalls: 1, lastTool: undefined, agent: "planner", step: { index: 2, total: 2 } },
    ],
    [
      "usage and cost are summed; one estimate marks the total",
      [usage(100, 20, 0.01), usage(200, 30, 0.02, true), usage(1, 1, 0.005)],
      { usage: { input: 301, output: 51, cacheRead: 30, cacheWrite: 0 }, costUsd: 0.035, estimate: true },
    ],
    [
      "warnings become notes, once each",
      [
        { type: "log", agent: "scout", level: "warn", message: "bash runs without an OS sandbox (no bwrap)." },
        { type: "log", agent: "scout", level: "warn", message: "bash runs without an OS sandbox (no bwrap)." },
        { type: "log", level: "info", message: "chatty" },
      ],
      { notes: ["scout: bash runs without an OS sandbox (no bwrap)."] },
    ],
    ["text and compaction change nothing shown", [{ type: "text", agent: "scout", text: "hi" }, { type: "compaction", agent: "scout", kind: "prune", beforeTokens: 9 }], {}],
  ])("%s", (_name, events, expected) => {
    const result = fold(events);
    expect(result).toEqual({ ...start, ...expected, costUsd: expect.closeTo(expected.costUsd ?? 0, 10) });
  });

  it("does not change the state it is given", () => {
    const before = structuredClone(start);
    foldEvent(start, usage(1, 1, 1));
    expect(start).toEqual(before);
  });
});

describe("progressFromEvents", () => {
  it("stamps the elapsed time from its clock", () => {
    let now = 1000;
    const progress = progressFromEvents(start, { clock: { now: () => now } });
    now = 43_000;
    expect(progress.apply({ type: "turn_start", agent: "scout", turn: 1 })).toMatchObject({ turn: 1, elapsedMs: 42_000 });
    now = 50_000;
    expect(progress.set({ links: { transcript: "https://x/jobs/job-1" } })).toMatchObject({ turn: 1, elapsedMs: 49_000, links: { transcript: "https://x/jobs/job-1" } });
    expect(progress.state.elapsedMs).toBe(49_000);
  });
});
