import { describe, expect, it } from "vitest";
import { parsePlan } from "../../src/plan/parse-plan.js";

const steps = (text: string) => parsePlan(text).steps.map((s) => s.text);

describe("parsePlan steps", () => {
  it.each<[string, string, string[]]>([
    ["a ## Plan header", "## Plan\n1. Add A\n2. Test A\n", ["Add A", "Test A"]],
    ["any header level, any case", "### PLAN\n1. one\n", ["one"]],
    ["a Plan: line", "Some intro.\nPlan:\n1. one\n2. two\n", ["one", "two"]],
    ["a bold Plan: line", "**Plan:**\n1. one\n", ["one"]],
    ["the planner's numbers are not trusted", "## Plan\n3. a\n3. b\n7. c\n", ["a", "b", "c"]],
    ["`1)` numbering", "## Plan\n1) a\n2) b\n", ["a", "b"]],
    ["a second header ends the plan", "## Plan\n1. a\n## Notes\n1. not a step\n", ["a"]],
    ["a bare label line after the steps ends the plan", "Plan:\n1. a\nTesting:\n1. not a step\n", ["a"]],
    ["a label line before the steps does not", "## Plan\nSteps:\n1. a\n", ["a"]],
    ["nested bullets are skipped", "## Plan\n1. a\n   - detail\n   - more\n2. b\n", ["a", "b"]],
    ["nested numbered items are skipped", "## Plan\n1. a\n    1. sub\n    2. sub\n2. b\n", ["a", "b"]],
    ["top-level bullets are not steps", "## Plan\n- note\n1. a\n", ["a"]],
    ["empty items are skipped", "## Plan\n1. a\n2.\n3. **  **\n4. b\n", ["a", "b"]],
    ["wrapped lines join with a space", "## Plan\n1. Add the option\n   and pass it on\n2. b\n", ["Add the option and pass it on", "b"]],
    ["a lazy (unindented) wrapped line joins too", "## Plan\n1. Add the option\nand pass it on\n", ["Add the option and pass it on"]],
    ["a paragraph after a blank line is detail, not step text", "## Plan\n1. a\n\n   Longer explanation.\n2. b\n", ["a", "b"]],
    ["a continuation after a nested list is detail", "## Plan\n1. a\n   - x\n     wrapped x\n2. b\n", ["a", "b"]],
    ["fenced code in the plan is skipped", "## Plan\n1. a\n```\n2. not a step\n```\n2. b\n", ["a", "b"]],
    ["tilde fences too", "## Plan\n1. a\n   ~~~ts\n   1. nope\n   ~~~\n2. b\n", ["a", "b"]],
    ["emphasis removed, inline code kept", "## Plan\n1. **Add** `**kept**` to _the_ *file* __now__\n", ["Add `**kept**` to the file now"]],
    ["emphasis around inline code", "## Plan\n1. **Add a `retries` option** to `Client`\n", ["Add a `retries` option to `Client`"]],
    ["paths with underscores stay", "## Plan\n1. Edit src/__init__.py and __main__.py, my_var_name\n", ["Edit src/__init__.py and __main__.py, my_var_name"]],
    ["never shortened", `## Plan\n1. ${"long ".repeat(80).trim()}\n`, ["long ".repeat(80).trim()]],
    ["a checkbox the planner added is dropped", "## Plan\n1. [ ] a\n2. [x] b\n", ["a", "b"]],
    ["the first plan with steps wins", "## Plan\nTBD\n## Plan\n1. a\n## Plan\n1. z\n", ["a"]],
  ])("%s", (_name, text, expected) => {
    expect(steps(text)).toEqual(expected);
  });

  it.each<[string, string]>([
    ["no plan at all", "I could not make a plan."],
    ["a numbered list without a plan header", "1. a\n2. b\n"],
    ["a plan inside a code fence", "Example:\n```markdown\n## Plan\n1. a\n```\n"],
    ["a plan inside a tilde fence", "~~~\nPlan:\n1. a\n~~~\n"],
    ["a plan header with no list", "## Plan\nNothing to do.\n"],
    ["an unclosed fence swallows the rest", "```\n## Plan\n1. a\n"],
  ])("%s → no steps", (_name, text) => {
    expect(parsePlan(text).steps).toEqual([]);
  });

  it("numbers steps 1..n in order", () => {
    expect(parsePlan("## Plan\n5. a\n9. b\n").steps).toEqual([
      { n: 1, text: "a" },
      { n: 2, text: "b" },
    ]);
  });

  it("accepts CRLF line endings", () => {
    expect(steps("## Plan\r\n1. a\r\n   more\r\n2. b\r\n")).toEqual(["a more", "b"]);
  });
});

describe("parsePlan sections", () => {
  const full = [
    "Here is my plan.",
    "",
    "## Goal",
    "Add a `--json` flag.",
    "",
    "## Plan",
    "1. Add the flag to `src/cli/args.ts`",
    "2. Print JSON in `src/cli/report.ts`",
    "3. Run `npm test`",
    "",
    "## Files to Modify",
    "- `src/cli/args.ts`",
    "- `src/cli/report.ts` - JSON output",
    "- **src/cli/new.ts** (new)",
    "- ./docs/cli.md: mention it",
    "  - nested/detail.ts",
    "- `src/cli/args.ts`",
    "",
    "## Risks",
    "Output format is a contract.",
    "",
    "- Scripts may parse it.",
  ].join("\n");

  it("reads goal, steps, files and risks", () => {
    expect(parsePlan(full)).toEqual({
      goal: "Add a `--json` flag.",
      steps: [
        { n: 1, text: "Add the flag to `src/cli/args.ts`" },
        { n: 2, text: "Print JSON in `src/cli/report.ts`" },
        { n: 3, text: "Run `npm test`" },
      ],
      filesToModify: ["src/cli/args.ts", "src/cli/report.ts", "src/cli/new.ts", "docs/cli.md"],
      risks: "Output format is a contract.\n\n- Scripts may parse it.",
    });
  });

  it("accepts label forms", () => {
    const plan = parsePlan("Goal: Fix it.\nPlan:\n1. a\nFiles to Modify:\n- a.ts\nRisks:\nNone.\n");
    expect(plan).toEqual({ goal: "Fix it.", steps: [{ n: 1, text: "a" }], filesToModify: ["a.ts"], risks: "None." });
  });

  it("leaves optional sections out when absent or empty", () => {
    expect(parsePlan("## Goal\n\n## Plan\n1. a\n")).toEqual({ steps: [{ n: 1, text: "a" }], filesToModify: [] });
  });

  it("skips 'None' in Files to Modify", () => {
    expect(parsePlan("## Files to Modify\n- None\n").filesToModify).toEqual([]);
  });
});

describe("parsePlan with a real model's headings", () => {
  it.each<[string, string]>([
    ["Implementation Plan", "## Implementation Plan\n1. a\n2. b"],
    ["Proposed plan, deeper level", "### Proposed plan\n1. a\n2. b"],
    ["Planned changes", "## Planned Changes\n1. a\n2. b"],
    ["decorated", "## 📋 **Step-by-step plan**\n1. a\n2. b"],
    ["Implementation Steps, when no heading names a plan", "## Implementation Steps\n1. a\n2. b"],
    ["a plan heading wins over a steps heading", "## Steps to reproduce\n1. run it\n\n## Steps\n1. x\n\n## Plan\n1. a\n2. b"],
  ])("%s", (_name, text) => {
    expect(parsePlan(text).steps).toEqual([{ n: 1, text: "a" }, { n: 2, text: "b" }]);
  });

  it("a heading that only contains the letters (Explanation) is not a plan; prose with a list under it gives no steps", () => {
    expect(parsePlan("## Explanation\n1. a\n2. b").steps).toEqual([]);
    expect(parsePlan("## Steps to Reproduce\n1. a\n2. b").steps).toEqual([]);
    expect(parsePlan("I looked at the code and I think we should:\n1. a\n2. b").steps).toEqual([]);
  });

  it("reads goal, files and risks under the model's own wording", () => {
    const plan = parsePlan("## Objective\nFix it.\n\n## Implementation Plan\n1. a\n\n## Files to Change\n- `a.ts`\n\n## Risks and Open Questions\nNone.");
    expect(plan).toEqual({ goal: "Fix it.", steps: [{ n: 1, text: "a" }], filesToModify: ["a.ts"], risks: "None." });
  });
});
