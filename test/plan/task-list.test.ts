import { describe, expect, it } from "vitest";
import { formatTaskList, taskText } from "../../src/plan/task-list.js";

describe("formatTaskList", () => {
  it("ticks the finished steps", () => {
    const steps = [
      { n: 1, text: "Add `x`" },
      { n: 2, text: "Test it" },
      { n: 3, text: "Docs" },
    ];
    expect(formatTaskList(steps, new Set([1, 3]))).toBe("- [x] Add `x`\n- [ ] Test it\n- [x] Docs");
  });

  it("is empty for no steps", () => {
    expect(formatTaskList([], new Set())).toBe("");
  });

  it("keeps every item on one line", () => {
    const out = formatTaskList([{ n: 1, text: "a\nb\r\n  c" }], new Set());
    expect(out).toBe("- [ ] a b c");
    expect(out.split("\n")).toHaveLength(1);
  });
});

describe("taskText", () => {
  it.each<[string, string]>([
    ["plain text", "plain text"],
    ["# not a heading", "\\# not a heading"],
    ["> not a quote", "\\> not a quote"],
    ["[ ] not a second box", "\\[ ] not a second box"],
    ["- not a nested list", "\\- not a nested list"],
    ["1. not a nested list", "1\\. not a nested list"],
    ["a <!-- hidden --> b", "a &lt;!-- hidden --> b"],
    ["keep **markdown** and `code`", "keep **markdown** and `code`"],
  ])("%j", (input, expected) => {
    expect(taskText(input)).toBe(expected);
  });
});
