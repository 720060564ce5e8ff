import { describe, expect, it } from "vitest";
import { parseDoneMarkers } from "../../src/plan/parse-done.js";
import { parseReview } from "../../src/review/parse-findings.js";
import { parsePlan } from "../../src/plan/parse-plan.js";
import { formatTaskList } from "../../src/plan/task-list.js";
import { NOT_QUADRATIC_MS } from "../helpers/linear-time.js";

// Agent output is shaped by issue text, so the parsers must not blow up on hostile input.
const hostile = [
  `## Plan\n1. ${" *a _b **c __d".repeat(20_000)}`,
  `# ${" ".repeat(200_000)}x`,
  `## Plan\n1. a${" ".repeat(200_000)}b`,
  `## Critical\n- ${"`".repeat(1)}${"a`` ".repeat(30_000)}`,
  `## Warnings\n- ${"a".repeat(200_000)}:1 - x`,
  `${"[DONE: ".repeat(40_000)}`,
  "```\n".repeat(50_000),
  `## Plan\n1. ${" ***x".repeat(1_999)}`,
];

describe("hostile input", () => {
  it.each(hostile.map((text, i) => [i, text] as const))("input %i parses quickly", (_i, text) => {
    const start = performance.now();
    const plan = parsePlan(text);
    parseReview(text);
    parseDoneMarkers(text);
    formatTaskList(plan.steps, new Set([1]));
    expect(performance.now() - start).toBeLessThan(NOT_QUADRATIC_MS);
  });
});
