import { describe, expect, it } from "vitest";
import { parseLocation, parseReview, severityOf, suggestionOf } from "../../src/review/parse-findings.js";

describe("parseLocation", () => {
  it.each<[string, { path: string; line: number; endLine?: number; rest: string } | null]>([
    ["src/a.ts:42 - text", { path: "src/a.ts", line: 42, rest: "text" }],
    ["src/a.ts:40-45 - text", { path: "src/a.ts", line: 40, endLine: 45, rest: "text" }],
    ["src/a.ts:40–45 — text", { path: "src/a.ts", line: 40, endLine: 45, rest: "text" }],
    ["src/a.ts:45-40 - backwards range is swapped", { path: "src/a.ts", line: 40, endLine: 45, rest: "backwards range is swapped" }],
    ["src/a.ts:42-42 - same line", { path: "src/a.ts", line: 42, rest: "same line" }],
    ["`src/a.ts:42` - backticked", { path: "src/a.ts", line: 42, rest: "backticked" }],
    ["`src/a.ts`:42 - backticked path", { path: "src/a.ts", line: 42, rest: "backticked path" }],
    ["**src/a.ts:42** - bold", { path: "src/a.ts", line: 42, rest: "bold" }],
    ["src/a.ts:42 — em dash", { path: "src/a.ts", line: 42, rest: "em dash" }],
    ["src/a.ts:42 – en dash", { path: "src/a.ts", line: 42, rest: "en dash" }],
    ["src/a.ts:42: colon", { path: "src/a.ts", line: 42, rest: "colon" }],
    ["src/a.ts:42:7 - column ignored", { path: "src/a.ts", line: 42, rest: "column ignored" }],
    ["src/a.ts:L42 - GitHub style", { path: "src/a.ts", line: 42, rest: "GitHub style" }],
    ["./src/a.ts:3 - dot slash", { path: "src/a.ts", line: 3, rest: "dot slash" }],
    ["Makefile:3 - no extension", { path: "Makefile", line: 3, rest: "no extension" }],
    ["src/a.ts:42", { path: "src/a.ts", line: 42, rest: "" }],
    ["src/a.ts - no line", null],
    ["src/a.ts:0 - line zero", null],
    ["src/a.ts:12abc - not a line", null],
    ["In src/a.ts:42 the loop is wrong", null],
    ["https://example.com:443 - a URL", null],
  ])("%j", (input, expected) => {
    expect(parseLocation(input)).toEqual(expected);
  });
});

describe("parseReview", () => {
  it("reads findings by severity and the summary", () => {
    const review = [
      "I reviewed the diff.",
      "",
      "## Critical",
      "- src/db.ts:10 - SQL built from user input.",
      "",
      "## Warnings",
      "* `src/api.ts:40-45` — no timeout",
      "- src/api.ts:60: retries forever",
      "",
      "## Suggestions",
      "+ src/util.ts:3 – rename `x`",
      "",
      "## Summary",
      "Not ready: fix the injection.",
      "",
      "Otherwise fine.",
    ].join("\n");
    expect(parseReview(review)).toEqual({
      findings: [
        { path: "src/db.ts", line: 10, severity: "critical", text: "SQL built from user input." },
        { path: "src/api.ts", line: 40, endLine: 45, severity: "warning", text: "no timeout" },
        { path: "src/api.ts", line: 60, severity: "warning", text: "retries forever" },
        { path: "src/util.ts", line: 3, severity: "suggestion", text: "rename `x`" },
      ],
      summary: "Not ready: fix the injection.\n\nOtherwise fine.",
      notes: [],
    });
  });

  it.each<[string, string, string]>([
    ["singular headers", "## Warning\n- a.ts:1 - x", "warning"],
    ["plural headers", "## Suggestions\n- a.ts:1 - x", "suggestion"],
    ["any level and case", "#### CRITICAL\n- a.ts:1 - x", "critical"],
    ["decorated headers", "## 🔴 **Critical:**\n- a.ts:1 - x", "critical"],
    ["label form", "Warnings:\n- a.ts:1 - x", "warning"],
    ["a model's own words: Critical Issues", "## Critical Issues\n- a.ts:1 - x", "critical"],
    ["Blockers", "### Blockers\n- a.ts:1 - x", "critical"],
    ["Major Issues", "## Major Issues\n- a.ts:1 - x", "warning"],
    ["Potential problems", "## Potential Problems\n- a.ts:1 - x", "warning"],
    ["Nitpicks", "## Nitpicks\n- a.ts:1 - x", "suggestion"],
    ["Minor issues (minor wins over issues)", "## Minor Issues\n- a.ts:1 - x", "suggestion"],
    ["Nits label", "Nits:\n- a.ts:1 - x", "suggestion"],
    ["Findings (no severity named: a warning)", "## Findings\n- a.ts:1 - x", "warning"],
  ])("%s", (_name, text, severity) => {
    expect(parseReview(text).findings).toEqual([{ path: "a.ts", line: 1, severity, text: "x" }]);
  });

  it("keeps a multi-line finding's text, nested bullets and code blocks included", () => {
    const text = [
      "## Warnings",
      "- src/a.ts:42 - The loop is off by one.",
      "  It skips the last element.",
      "",
      "  ```suggestion",
      "  for (let i = 0; i <= n; i++) {",
      "  ```",
      "  - also check `b.ts`",
      "- src/b.ts:1 - next",
    ].join("\n");
    expect(parseReview(text).findings).toEqual([
      {
        path: "src/a.ts",
        line: 42,
        severity: "warning",
        text: "The loop is off by one.\nIt skips the last element.\n\n```suggestion\nfor (let i = 0; i <= n; i++) {\n```\n- also check `b.ts`",
        suggestion: "for (let i = 0; i <= n; i++) {",
      },
      { path: "src/b.ts", line: 1, severity: "warning", text: "next" },
    ]);
  });

  it("puts bullets and paragraphs without path:line into notes, with their severity", () => {
    const text = [
      "## Critical",
      "The migration drops the users table.",
      "",
      "- src/a.ts - no line number",
      "- Whole design is racy",
      "  when two jobs run.",
      "## Warnings",
      "None.",
      "## Suggestions",
      "- None",
      "- _No issues found._",
    ].join("\n");
    const review = parseReview(text);
    expect(review.findings).toEqual([]);
    expect(review.notes).toEqual([
      { severity: "critical", text: "The migration drops the users table." },
      { severity: "critical", text: "src/a.ts - no line number" },
      { severity: "critical", text: "Whole design is racy\nwhen two jobs run." },
    ]);
  });

  it("skips code fences and ignores text outside the known sections", () => {
    const text = [
      "- src/x.ts:1 - before any section",
      "## Warnings",
      "```",
      "- src/y.ts:2 - inside a fence",
      "```",
      "- src/z.ts:3 - real",
      "## Tests",
      "- src/w.ts:4 - unknown section",
    ].join("\n");
    const review = parseReview(text);
    expect(review.findings.map((f) => f.path)).toEqual(["src/z.ts"]);
    expect(review.notes).toEqual([]);
  });

  it("does not take a review inside a fence as a review", () => {
    expect(parseReview("```\n## Critical\n- a.ts:1 - x\n## Summary\nok\n```")).toEqual({ findings: [], summary: "", notes: [] });
  });

  it("a code block under a finding keeps its content even when it sits further left", () => {
    const text = "## Warnings\n- `a.ts:4-5` — ignores the signal\n  ```suggestion\nif (signal.aborted) return;\n  ```\n";
    expect(parseReview(text).findings).toEqual([
      { path: "a.ts", line: 4, endLine: 5, severity: "warning", text: "ignores the signal\n```suggestion\nif (signal.aborted) return;\n```", suggestion: "if (signal.aborted) return;" },
    ]);
  });

  it("accepts an inline Summary: label and joins several summaries", () => {
    expect(parseReview("Summary: Looks good.\n## Summary\nShip it.").summary).toBe("Looks good.\n\nShip it.");
  });

  it("reads a finding with 150,000 lines under it (more than a function's arguments can hold)", () => {
    const review = parseReview(`## Warnings\n- src/a.ts:1 - first\n${"   more\n".repeat(150_000)}`);
    expect(review.findings).toHaveLength(1);
    expect(review.findings[0]!.text.split("\n")).toHaveLength(150_001);
  });

  it("numbered items count as bullets", () => {
    expect(parseReview("## Critical\n1. a.ts:1 - x\n2. b.ts:2 - y").findings).toHaveLength(2);
  });

  it("empty review", () => {
    expect(parseReview("")).toEqual({ findings: [], summary: "", notes: [] });
  });
});

describe("tolerant review headings", () => {
  it("a heading that names no severity is not a finding section; a Summary-like heading is the summary", () => {
    const text = "## Overview\n- a.ts:1 - not a finding\n\n## High-level notes\n- a.ts:2 - nor this\n\n## Critical Issues\n- a.ts:3 - real\n\n## Overall Assessment\nGood.";
    const review = parseReview(text);
    expect(review.findings).toEqual([{ path: "a.ts", line: 3, severity: "critical", text: "real" }]);
    expect(review.summary).toBe("Good.");
  });

  it("severityOf reads the words of a title", () => {
    expect([ "critical issues", "warnings", "nitpicks", "strengths", "high level overview", "low priority"].map(severityOf)).toEqual([
      "critical",
      "warning",
      "suggestion",
      undefined,
      undefined,
      "suggestion",
    ]);
  });

  it("a suggestion block's content is kept as the finding's replacement; an unclosed one is not", () => {
    expect(suggestionOf("fix it\n```suggestion\n  const a = 1;\n  const b = 2;\n```")).toBe("  const a = 1;\n  const b = 2;");
    expect(suggestionOf("delete it\n```suggestion\n```")).toBe("");
    expect(suggestionOf("```suggestion\nhalf")).toBeUndefined();
    expect(suggestionOf("```ts\nx\n```")).toBeUndefined();
  });
});
