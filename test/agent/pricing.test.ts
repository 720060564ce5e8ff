import { describe, expect, it } from "vitest";
import { BudgetTracker, DEFAULT_BUDGETS } from "../../src/agent/budget.js";
import { contextWindowOf, costOf, modelFamily, priceOf } from "../../src/agent/pricing.js";

describe("pricing", () => {
  it.each([
    ["claude-sonnet-4-5-20250929", "claude-sonnet-4-5"],
    ["claude-sonnet-4-5@20250929", "claude-sonnet-4-5"],
    ["Claude-Opus-4-1-latest", "claude-opus-4-1"],
    ["claude-sonnet-5-5[1m]", "claude-sonnet-5-5"],
    ["claude-opus-4-8", "claude-opus-4-8"],
  ])("%s is of the family %s", (model, family) => {
    expect(modelFamily(model)).toBe(family);
  });

  it.each([
    ["claude-sonnet-5-5", 2, 10, false],
    ["claude-haiku-4-5-20251001", 1, 5, false],
    ["claude-opus-4-20250514", 15, 75, false],
    ["claude-opus-4-6", 5, 25, false],
    // Not in the table: priced at the dearest known rate, never cheaper than a real model.
    ["claude-opus-4-8", 15, 75, true],
    ["some-proxy-model", 15, 75, true],
  ])("%s costs $%s/$%s per MTok (estimate: %s)", (model, input, output, estimate) => {
    const { price, estimate: isEstimate } = priceOf(model);
    expect([price.input, price.output, isEstimate]).toEqual([input, output, estimate]);
  });

  it("prices cache reads at 0.1× and cache writes at 1.25× the input rate", () => {
    const { usd } = costOf("claude-sonnet-5-5", { input: 1_000_000, output: 1_000_000, cacheRead: 1_000_000, cacheWrite: 1_000_000 });
    expect(usd).toBeCloseTo(2 + 10 + 0.2 + 2.5, 10);
  });

  it("knows the 1M windows of the newer models", () => {
    expect(contextWindowOf("claude-sonnet-5-5")).toBe(1_000_000);
    expect(contextWindowOf("claude-haiku-4-5")).toBe(200_000);
    expect(contextWindowOf("unknown")).toBe(200_000);
  });

  it("adds usage and cost across agents into one budget", () => {
    const budget = new BudgetTracker({ ...DEFAULT_BUDGETS, maxCostUsd: 0.05 });
    budget.addUsage("claude-sonnet-5-5", { input: 10_000, output: 1000, cacheRead: 0, cacheWrite: 0 });
    expect(budget.exceeded()).toBeUndefined();
    budget.addUsage("claude-haiku-4-5", { input: 30_000, output: 0, cacheRead: 0, cacheWrite: 0 });
    expect(budget.costUsd).toBeCloseTo(0.02 + 0.01 + 0.03, 10);
    expect(budget.exceeded()).toBe("maxCostUsd");
    expect(budget.estimate).toBe(false);
  });
});
