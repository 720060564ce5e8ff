/** How a model wait reaches people: the progress comment's state and text, and the CLI's line. */
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/events.js";
import { emptyUsage } from "../../src/agent/pricing.js";
import { ProgressFormatter } from "../../src/cli/format.js";
import { foldEvent, initialProgress } from "../../src/report/progress-state.js";
import { renderProgress } from "../../src/report/render.js";
import { Timeline } from "../../src/web/timeline.js";

const wait: AgentEvent = { type: "model_wait", agent: "scout", attempt: 2, waitMs: 8000, reason: "529 overloaded_error: Overloaded" };
const running = () => foldEvent(foldEvent(initialProgress("job-1", "plan"), { type: "run_start", agent: "scout", model: "m", tools: [] }), { type: "turn_start", agent: "scout", turn: 1 });

describe("progress comment while the model is overloaded", () => {
  it("says it waits for the model, why, and when it tries again", () => {
    const text = renderProgress(foldEvent(running(), wait));
    expect(text.split("\n")[0]).toMatch(/^⏳ Waiting for the model · scout · turn 1 · /);
    expect(text).toContain("Waiting for the model: `529 overloaded_error: Overloaded`; try 3 in 8s");
  });

  it.each<AgentEvent>([
    { type: "text", agent: "scout", text: "Hello" },
    { type: "usage", agent: "scout", usage: emptyUsage(), costUsd: 0, estimate: false },
    { type: "turn_end", agent: "scout", turn: 1, stopReason: "end_turn" },
    { type: "run_end", agent: "scout", stopReason: "error", error: "provider error: 529 Overloaded" },
  ])("stops saying so once the model answers again or the run ends ($type)", (event) => {
    const state = foldEvent(foldEvent(running(), wait), event);
    expect(state.modelWait).toBeUndefined();
    expect(renderProgress(state)).not.toContain("Waiting for the model");
  });

  it("is not shown in a terminal comment", () => {
    const state = { ...foldEvent(running(), wait), terminal: { kind: "failed" as const, reason: "provider error: 529 Overloaded" } };
    expect(renderProgress(state)).not.toContain("Waiting for the model");
  });
});

describe("CLI progress line", () => {
  it("prints the wait", () => {
    const formatter = new ProgressFormatter(() => ({ usage: emptyUsage(), costUsd: 0, estimate: false }));
    expect(formatter.format(wait)).toBe("[scout] waiting for the model: 529 overloaded_error: Overloaded · try 3 in 8s");
  });
});

describe("transcript page", () => {
  it("shows each wait as a note of the agent's step", () => {
    const timeline = new Timeline(
      { id: "job-1", state: "running", kind: "plan", repo: "o/r", number: 1, isPullRequest: false, sender: "octocat", request: "/plan", url: "https://github.com/o/r/issues/1", createdAt: 0 },
      "/jobs/job-1/artifacts/",
    );
    timeline.apply({ type: "run_start", agent: "scout", model: "m", tools: [], at: 1, seq: 1 });
    const ops = timeline.apply({ ...wait, at: 2, seq: 2 } as Parameters<Timeline["apply"]>[0]);
    expect(JSON.stringify(ops)).toContain("waiting for the model (529 overloaded_error: Overloaded); try 3 in 8s");
  });
});
