/** When a run stops: the loop's three decisions, each a table (src/agent/stop.ts). */
import { describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS, type Budgets } from "../../src/agent/budget.js";
import {
  afterReply,
  afterToolCalls,
  isCutOff,
  MAX_CONTINUATIONS,
  stopBeforeRequest,
  stopOfCause,
  type AfterReply,
  type AfterToolCalls,
  type BeforeRequest,
  type Stop,
} from "../../src/agent/stop.js";
import type { ToolCallResult } from "../../src/agent/tool-calls.js";

const limits: Budgets = { maxTurns: 10, maxOutputTokens: 1000, maxCostUsd: 0.5, maxMinutes: 5 };

describe("stopOfCause", () => {
  it.each<[string, Parameters<typeof stopOfCause>[0], Stop]>([
    ["an abort from outside", "aborted", { stopReason: "aborted", error: "aborted" }],
    ["the time budget", "maxMinutes", { stopReason: "budget", budget: "maxMinutes", error: "time budget reached (5 min)" }],
  ])("%s", (_name, cause, expected) => expect(stopOfCause(cause, limits)).toStrictEqual(expected));
});

describe("stopBeforeRequest", () => {
  const base: BeforeRequest = { agent: "worker", limits, turns: 2 };
  it.each<[string, Partial<BeforeRequest>, Stop | undefined]>([
    ["nothing spent: the request goes out", {}, undefined],
    ["aborted", { stopped: "aborted" }, { stopReason: "aborted", error: "aborted" }],
    ["out of time", { stopped: "maxMinutes" }, { stopReason: "budget", budget: "maxMinutes", error: "time budget reached (5 min)" }],
    ["an abort wins over a spent budget", { stopped: "aborted", exceeded: "maxCostUsd" }, { stopReason: "aborted", error: "aborted" }],
    ["the job's turns", { exceeded: "maxTurns" }, { stopReason: "budget", budget: "maxTurns", error: "turn budget reached (10 turns)" }],
    ["the job's output tokens", { exceeded: "maxOutputTokens" }, { stopReason: "budget", budget: "maxOutputTokens", error: "output-token budget reached (1000 tokens)" }],
    ["the job's cost", { exceeded: "maxCostUsd" }, { stopReason: "budget", budget: "maxCostUsd", error: "cost budget reached ($0.50)" }],
    ["a spent job budget wins over the agent's own cap", { exceeded: "maxCostUsd", turns: 3, maxTurns: 3 }, { stopReason: "budget", budget: "maxCostUsd", error: "cost budget reached ($0.50)" }],
    ["the agent's own turns used", { turns: 3, maxTurns: 3 }, { stopReason: "budget", budget: "maxTurns", error: "turn budget reached (3 turns) for agent worker" }],
    ["the agent's own turns past its cap (a resumed run)", { turns: 4, maxTurns: 3 }, { stopReason: "budget", budget: "maxTurns", error: "turn budget reached (3 turns) for agent worker" }],
    ["turns left under the agent's cap", { turns: 2, maxTurns: 3 }, undefined],
    ["no cap of its own", { turns: 200 }, undefined],
  ])("%s", (_name, run, expected) => expect(stopBeforeRequest({ ...base, ...run })).toStrictEqual(expected));

  it("names the job's default limits", () => {
    expect(stopBeforeRequest({ ...base, limits: DEFAULT_BUDGETS, exceeded: "maxMinutes" })?.error).toBe("time budget reached (30 min)");
  });
});

describe("isCutOff", () => {
  it.each<[string | null, boolean]>([
    ["max_tokens", true],
    ["model_context_window_exceeded", true],
    ["end_turn", false],
    ["tool_use", false],
    ["refusal", false],
    [null, false],
  ])("%s → %s", (stopReason, expected) => expect(isCutOff(stopReason)).toBe(expected));
});

describe("afterReply", () => {
  const done: AfterReply = { next: "stop", stop: { stopReason: "done" } };
  it.each<[string, Parameters<typeof afterReply>[0], AfterReply]>([
    ["an answer without tools", { toolCalls: 0, stopReason: "end_turn", continuations: 0 }, done],
    ["tool calls", { toolCalls: 2, stopReason: "tool_use", continuations: 0 }, { next: "tools" }],
    ["tool calls in a cut-off reply still run", { toolCalls: 1, stopReason: "max_tokens", continuations: 0 }, { next: "tools" }],
    ["an answer cut off by max_tokens is continued", { toolCalls: 0, stopReason: "max_tokens", continuations: 0 }, { next: "continue" }],
    ["an answer cut off by a full window is continued", { toolCalls: 0, stopReason: "model_context_window_exceeded", continuations: 1 }, { next: "continue" }],
    ["the last continuation allowed", { toolCalls: 0, stopReason: "max_tokens", continuations: MAX_CONTINUATIONS - 1 }, { next: "continue" }],
    ["after MAX_CONTINUATIONS the pieces are kept", { toolCalls: 0, stopReason: "max_tokens", continuations: MAX_CONTINUATIONS }, done],
    ["a refusal is an error", { toolCalls: 0, stopReason: "refusal", continuations: 0 }, { next: "stop", stop: { stopReason: "error", error: "the model declined to continue (refusal)" } }],
    ["no stop reason", { toolCalls: 0, stopReason: null, continuations: 0 }, done],
  ])("%s", (_name, reply, expected) => expect(afterReply(reply)).toStrictEqual(expected));
});

describe("afterToolCalls", () => {
  const result = (extra: Partial<ToolCallResult> = {}): ToolCallResult => ({
    block: { type: "tool_result", tool_use_id: "t", content: "ok" },
    filesRead: [],
    filesChanged: [],
    ...extra,
  });
  const submitted = result({ final: { tool: "submit_plan", value: { steps: [] }, text: "the plan" } });
  const asking = result({ question: { question: "Which one?", options: [] } });
  const secondAsking = result({ question: { question: "And this?", options: ["yes", "no"] } });
  it.each<[string, ToolCallResult[], AfterToolCalls]>([
    ["plain results go to the model", [result(), result()], { next: "continue" }],
    ["a result tool hands over", [result(), submitted], { next: "submitted", submission: submitted.final! }],
    ["a question pauses", [result(), asking], { next: "question", asked: asking }],
    ["the first of two questions is asked", [asking, secondAsking], { next: "question", asked: asking }],
    ["a hand-over wins over a question", [asking, submitted], { next: "submitted", submission: submitted.final! }],
    ["no calls", [], { next: "continue" }],
  ])("%s", (_name, results, expected) => expect(afterToolCalls(results)).toStrictEqual(expected));
});
