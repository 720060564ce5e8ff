import { describe, expect, it } from "vitest";
import { emptyUsage } from "../../src/agent/pricing.js";
import { formatCost, formatDuration, formatTokens, ProgressFormatter } from "../../src/cli/format.js";

describe("format", () => {
  it.each([
    [999, "999"],
    [12_345, "12.3k"],
    [2_500_000, "2.50M"],
  ])("tokens %s → %s", (n, text) => expect(formatTokens(n)).toBe(text));

  it.each([
    [0.01234, false, "$0.0123"],
    [3.5, false, "$3.50"],
    [0.5, true, "~$0.5000 (estimate)"],
  ])("cost %s (estimate %s) → %s", (usd, estimate, text) => expect(formatCost(usd, estimate)).toBe(text));

  it.each([
    [4_400, "4s"],
    [125_000, "2m 05s"],
  ])("duration %s → %s", (ms, text) => expect(formatDuration(ms)).toBe(text));

  it("prints a line per finished tool with its turn and arguments, and usage with running totals", () => {
    const f = new ProgressFormatter(() => ({ usage: { input: 1000, output: 200, cacheRead: 3000, cacheWrite: 0 }, costUsd: 0.02, estimate: false }));
    expect(f.format({ type: "turn_start", agent: "scout", turn: 3 })).toBeNull();
    expect(f.format({ type: "tool_start", agent: "scout", id: "t1", name: "read", args: "read a.ts" })).toBeNull();
    expect(f.format({ type: "tool_end", agent: "scout", id: "t1", name: "read", ok: false, ms: 5, output: "" })).toBe(
      "[scout] turn 3 · read a.ts · error 5ms",
    );
    expect(
      f.format({ type: "usage", agent: "scout", usage: { ...emptyUsage(), input: 100, cacheRead: 3000, output: 200 }, costUsd: 0.01, estimate: false }),
    ).toBe("[scout] turn 3 · 3.1k in (3.0k cached) · 200 out · total 4.2k tokens $0.0200");
    expect(f.format({ type: "run_end", agent: "scout", stopReason: "budget", error: "cost budget reached ($3.00)" })).toBe(
      "[scout] stopped (budget): cost budget reached ($3.00)",
    );
  });

  it("names a parallel step's item on each of its agent's lines, with its own turn count", () => {
    const f = new ProgressFormatter(() => ({ usage: emptyUsage(), costUsd: 0, estimate: false }));
    f.format({ type: "turn_start", agent: "scout", item: 1, turn: 4 });
    f.format({ type: "turn_start", agent: "scout", item: 2, turn: 1 });
    f.format({ type: "tool_start", agent: "scout", item: 1, id: "a", name: "ls", args: "ls src" });
    f.format({ type: "tool_start", agent: "scout", item: 2, id: "b", name: "ls", args: "ls test" });
    expect(f.format({ type: "tool_end", agent: "scout", item: 2, id: "b", name: "ls", ok: true, ms: 1, output: "" })).toBe("[scout#2] turn 1 · ls test · ok 1ms");
    expect(f.format({ type: "tool_end", agent: "scout", item: 1, id: "a", name: "ls", ok: true, ms: 2, output: "" })).toBe("[scout#1] turn 4 · ls src · ok 2ms");
  });
});
