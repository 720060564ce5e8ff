import { describe, expect, it } from "vitest";
import { countsLine, renderReviewCheck, renderSkippedCheck, reviewLines, type ReviewReport } from "../../src/review/render-review.js";
import type { Terminal } from "../../src/report/types.js";
import type { DiffFile } from "../../src/review/diff-lines.js";
import type { NotReviewed } from "../../src/review/select-files.js";

const file = (path: string): DiffFile => ({ path, status: "modified", binary: false, additions: 1, deletions: 0, hunks: [] });

const HEAD = "1234567890abcdef1234567890abcdef12345678";
const SINCE = "abcdef0123456789abcdef0123456789abcdef01";
/** 1m 05s · 12.3k tokens · $0.0123 */
const FIGURES = "1m 05s · 12.3k tokens · $0.0123";

const report = (o: Partial<ReviewReport> = {}): ReviewReport => ({
  terminal: { kind: "done" },
  counts: { critical: 0, warning: 0, suggestion: 0 },
  clean: true,
  inline: 0,
  repeated: 0,
  headSha: HEAD,
  usage: { input: 10_000, output: 2_000, cacheRead: 300, cacheWrite: 45 },
  costUsd: 0.0123,
  estimate: false,
  elapsedMs: 65_000,
  ...o,
});

const findings = { counts: { critical: 1, warning: 2, suggestion: 1 }, clean: false, inline: 3 };
/** Open findings on the pull request, as the gate counts them (earlier reviews' included). */
const open = (...severities: Array<"critical" | "warning" | "suggestion">) => severities.map((severity, i) => ({ severity, path: "src/a.ts", line: i + 1, title: `finding ${i + 1}` }));

describe("countsLine", () => {
  it.each([
    [{ critical: 0, warning: 0, suggestion: 0 }, "0 critical · 0 warnings · 0 suggestions"],
    [{ critical: 1, warning: 1, suggestion: 1 }, "1 critical · 1 warning · 1 suggestion"],
    [{ critical: 2, warning: 3, suggestion: 12 }, "2 critical · 3 warnings · 12 suggestions"],
  ])("%j → %s", (counts, line) => {
    expect(countsLine(counts)).toBe(line);
  });
});

describe("renderReviewCheck: conclusion and title per ending", () => {
  it.each<[string, Partial<ReviewReport>, string, string]>([
    ["clean", {}, "success", "No findings"],
    ["findings", findings, "neutral", "1 critical · 2 warnings · 1 suggestion"],
    ["nothing to review", { nothingToReview: "only lockfiles changed" }, "skipped", "Nothing to review"],
    ["nothing to review wins over findings", { ...findings, nothingToReview: "x" }, "skipped", "Nothing to review"],
    ["failed", { terminal: { kind: "failed", reason: "the model is overloaded" } }, "failure", "Failed: the model is overloaded"],
    ["failed with findings counted", { ...findings, terminal: { kind: "failed", reason: "boom" } }, "failure", "Failed: boom"],
    ["stopped", { terminal: { kind: "stopped", budget: "the cost budget ($1.00)" } }, "neutral", "Stopped: the cost budget ($1.00)"],
    ["cancelled with a reason", { terminal: { kind: "cancelled", reason: "a newer push" } }, "cancelled", "Cancelled: a newer push"],
    ["cancelled by someone, no reason", { terminal: { kind: "cancelled", by: "alice" } }, "cancelled", "Cancelled"],
    ["cancelled without anything", { terminal: { kind: "cancelled" } }, "cancelled", "Cancelled"],
    ["failOn never keeps findings neutral", { ...findings, failOn: "never" }, "neutral", "1 critical · 2 warnings · 1 suggestion"],
    ["failOn critical with a critical", { ...findings, open: open("critical", "warning", "warning", "suggestion"), failOn: "critical" }, "failure", "1 critical · 2 warnings · 1 suggestion"],
    ["failOn critical with warnings only", { ...findings, counts: { critical: 0, warning: 2, suggestion: 1 }, open: open("warning", "warning", "suggestion"), failOn: "critical" }, "success", "0 critical · 2 warnings · 1 suggestion"],
    ["failOn critical with a critical of an earlier review still open", { ...findings, counts: { critical: 0, warning: 2, suggestion: 1 }, open: open("critical", "warning"), failOn: "critical" }, "failure", "0 critical · 2 warnings · 1 suggestion"],
    ["failOn critical, a clean review, a critical still open", { open: open("critical"), failOn: "critical" }, "failure", "No new findings · 1 open critical finding"],
    ["failOn critical counts a critical note of this review", { ...findings, counts: { critical: 1, warning: 0, suggestion: 0 }, notes: [{ severity: "critical" }], failOn: "critical" }, "failure", "1 critical · 0 warnings · 0 suggestions"],
    ["failOn warning with warnings", { ...findings, counts: { critical: 0, warning: 2, suggestion: 1 }, open: open("warning"), failOn: "warning" }, "failure", "0 critical · 2 warnings · 1 suggestion"],
    ["failOn warning with suggestions only", { ...findings, counts: { critical: 0, warning: 0, suggestion: 1 }, open: open("suggestion"), failOn: "warning" }, "success", "0 critical · 0 warnings · 1 suggestion"],
    ["failOn clean", { failOn: "critical" }, "success", "No findings"],
    ["failOn: a stopped run with nothing open stays neutral", { ...findings, open: open("warning"), failOn: "critical", terminal: { kind: "stopped", budget: "x" } }, "neutral", "Stopped: x"],
    ["failOn: a stopped run fails while a critical is open", { ...findings, open: open("critical"), failOn: "critical", terminal: { kind: "stopped", budget: "x" } }, "failure", "Stopped: x"],
    ["failOn, nothing to review, nothing open", { nothingToReview: "x", failOn: "critical" }, "neutral", "Nothing to review"],
    ["failOn, nothing to review, a critical open", { nothingToReview: "x", open: open("critical"), failOn: "critical" }, "failure", "Nothing new to review · 1 open critical finding"],
    ["failOn never, nothing to review, a critical open", { nothingToReview: "x", open: open("critical"), failOn: "never" }, "skipped", "Nothing to review"],
  ])("%s", (_what, o, conclusion, title) => {
    const { conclusion: c, output } = renderReviewCheck(report(o));
    expect(c).toBe(conclusion);
    expect(output.title).toBe(title);
  });
});

describe("renderReviewCheck: whole outputs", () => {
  it("an incremental, clean review with a file left out", () => {
    const r = report({
      since: SINCE,
      selection: { reviewed: [file("src/a.ts"), file("src/b.ts")], notReviewed: [{ path: "package-lock.json", reason: "lockfile" }] },
    });
    expect(renderReviewCheck(r)).toEqual({
      annotations: [],
      conclusion: "success",
      output: {
        title: "No findings",
        summary: [
          "- Incremental review: the commits abcdef0..1234567 since the last review.",
          "- Reviewed 2 of 3 changed files.",
          "- No findings: no review was posted.",
          "- Not reviewed: package-lock.json (lockfile).",
          "",
          FIGURES,
        ].join("\n"),
      },
    });
  });

  it("a full review with findings, a review link, repeats and the transcript", () => {
    const r = report({
      ...findings,
      repeated: 2,
      since: SINCE,
      fullBecause: "the base branch changed since the last review: full review",
      selection: { reviewed: [file("src/a.ts")], notReviewed: [] },
      review: { url: "https://github.com/o/r/pull/3#pullrequestreview-9" },
      transcript: "https://crewbot.example/jobs/j1",
      estimate: true,
    });
    expect(renderReviewCheck(r)).toEqual({
      annotations: [],
      conclusion: "neutral",
      output: {
        title: "1 critical · 2 warnings · 1 suggestion",
        summary: [
          "- Full review: the base branch changed since the last review.",
          "- Reviewed 1 of 1 changed file.",
          "- Findings: 1 critical · 2 warnings · 1 suggestion; 3 inline comments. Review: https://github.com/o/r/pull/3#pullrequestreview-9",
          "- 2 findings posted on an earlier review not repeated.",
          "",
          "1m 05s · 12.3k tokens · ~$0.0123 (estimate) · [Transcript](https://crewbot.example/jobs/j1)",
        ].join("\n"),
      },
    });
  });

  it("nothing to review: no file counts, no not-reviewed list, no findings line", () => {
    const r = report({
      nothingToReview: "every changed file is a lockfile",
      selection: { reviewed: [], notReviewed: [{ path: "yarn.lock", reason: "lockfile" }] },
      usage: undefined,
      costUsd: 0,
      elapsedMs: 400,
    });
    expect(renderReviewCheck(r)).toEqual({
      annotations: [],
      conclusion: "skipped",
      output: { title: "Nothing to review", summary: "- Nothing to review: every changed file is a lockfile.\n\n0s · 0 tokens · $0.0000" },
    });
  });

  it("a failed review says what was reviewed and left out, but no findings", () => {
    const r = report({
      ...findings,
      terminal: { kind: "failed", reason: "GitHub refused the review (422)" },
      selection: { reviewed: [file("a.ts")], notReviewed: [{ path: "b.bin", reason: "binary" }] },
    });
    expect(renderReviewCheck(r).output.summary).toBe(["- Reviewed 1 of 2 changed files.", "- Not reviewed: b.bin (binary).", "", FIGURES].join("\n"));
  });
});

describe("renderReviewCheck: the cost and the effort level", () => {
  it("the check run's bullets end with the cost at the effort level, above the figures", () => {
    const r = report({ effort: "quick", selection: { reviewed: [file("src/a.ts")], notReviewed: [] } });
    expect(renderReviewCheck(r).output.summary).toBe(["- Reviewed 1 of 1 changed file.", "- No findings: no review was posted.", "- Cost: $0.0123 (effort: quick).", "", FIGURES].join("\n"));
  });
});

describe("reviewLines", () => {
  const notReviewed = (n: number): NotReviewed[] => Array.from({ length: n }, (_, i) => ({ path: `vendor/f${i + 1}.js`, reason: "vendored" }));
  const list = (n: number) => Array.from({ length: n }, (_, i) => `vendor/f${i + 1}.js (vendored)`).join(", ");

  it.each<[string, Partial<ReviewReport>, string[]]>([
    ["nothing known", {}, ["No findings: no review was posted."]],
    ["a full-review reason not ending in ': full review' is kept whole", { fullBecause: "the last review is gone" }, ["Full review: the last review is gone.", "No findings: no review was posted."]],
    ["fullBecause wins over since", { fullBecause: "x: full review", since: SINCE }, ["Full review: x.", "No findings: no review was posted."]],
    ["findings without a review link", { ...findings, inline: 1 }, ["Findings: 1 critical · 2 warnings · 1 suggestion; 1 inline comment."]],
    ["findings with no inline comments", { ...findings, inline: 0 }, ["Findings: 1 critical · 2 warnings · 1 suggestion; 0 inline comments."]],
    ["one repeat on a clean review", { repeated: 1 }, ["No findings: no review was posted.", "1 finding posted on an earlier review not repeated."]],
    ["stopped: no findings line, no repeats line", { terminal: { kind: "stopped", budget: "turns" } as Terminal, repeated: 4 }, []],
    ["cancelled with a since", { terminal: { kind: "cancelled" } as Terminal, since: SINCE }, ["Incremental review: the commits abcdef0..1234567 since the last review."]],
    ["exactly 20 not reviewed: no 'more'", { selection: { reviewed: [], notReviewed: notReviewed(20) } }, ["Reviewed 0 of 20 changed files.", "No findings: no review was posted.", `Not reviewed: ${list(20)}.`]],
    ["a clean review posted for its dependency facts", { review: { url: "https://x/r/1" }, dependencies: { changed: 12, inspected: 10, risky: 0, problems: 0 } }, ["No findings. Review: https://x/r/1", "Dependencies: 12 changed, 10 inspected, none with risky additions."]],
    ["risky dependencies and a problem", { ...findings, dependencies: { changed: 12, inspected: 10, risky: 2, problems: 1 } }, ["Findings: 1 critical · 2 warnings · 1 suggestion; 3 inline comments.", "Dependencies: 12 changed, 10 inspected, 2 with risky additions. 1 problem reading the dependency files."]],
    ["dependencies not inspected on a fork", { dependencies: { notRun: "a fork's pull request is not checked against the operator's own npm registry" } }, ["No findings: no review was posted.", "Dependencies: not inspected (a fork's pull request is not checked against the operator's own npm registry)."]],
    ["23 not reviewed: 20 shown and 3 more", { selection: { reviewed: [file("a.ts")], notReviewed: notReviewed(23) } }, ["Reviewed 1 of 24 changed files.", "No findings: no review was posted.", `Not reviewed: ${list(20)}, and 3 more.`]],
    ["a model reviewed: its cost beside the effort level, last", { effort: "standard", ...findings }, ["Findings: 1 critical · 2 warnings · 1 suggestion; 3 inline comments.", "Cost: $0.0123 (effort: standard)."]],
    ["an estimated cost says so", { effort: "deep", estimate: true }, ["No findings: no review was posted.", "Cost: ~$0.0123 (an estimate; effort: deep)."]],
    ["a stopped review still names what it cost", { effort: "quick", terminal: { kind: "stopped", budget: "turns" } as Terminal }, ["Cost: $0.0123 (effort: quick)."]],
  ])("%s", (_what, o, lines) => {
    expect(reviewLines(report(o))).toEqual(lines);
  });

  it("the 'and N more' list names the first 20 in order", () => {
    const line = reviewLines(report({ selection: { reviewed: [], notReviewed: notReviewed(21) } })).at(-1)!;
    expect(line).toBe(`Not reviewed: ${list(20)}, and 1 more.`);
    expect(line).toContain("vendor/f20.js (vendored), and 1 more.");
    expect(line).not.toContain("vendor/f21.js");
  });
});

describe("renderSkippedCheck", () => {
  it.each([
    ["the pull request is a draft (review.drafts: false); it is reviewed when marked ready", "Not reviewed automatically: the pull request is a draft (review.drafts: false); it is reviewed when marked ready."],
    ["@renovate[bot] is a bot (add it to review.includeBots to review its pull requests)", "Not reviewed automatically: @renovate[bot] is a bot (add it to review.includeBots to review its pull requests)."],
  ])("%s", (reason, summary) => {
    expect(renderSkippedCheck(reason)).toEqual({ conclusion: "skipped", output: { title: "Skipped", summary } });
  });

  it("a monthly cap reached: neutral, titled so, even without a gate; a gate holding fails as for any skip", () => {
    const reason = "this repository has used its monthly budget ($5.50 of $5.00, `budgets.monthlyUsd`); new jobs start again on 1 January 2027 (UTC)";
    const summary = `Not reviewed automatically: ${reason}.`;
    expect(renderSkippedCheck(reason, { run: "capped" })).toEqual({ conclusion: "neutral", output: { title: "Monthly budget used", summary } });
    expect(renderSkippedCheck(reason, { run: "capped", failOn: "critical", open: open("critical") })).toMatchObject({
      conclusion: "failure",
      output: { title: "Not reviewed · 1 open critical finding" },
    });
  });

  it.each<[string, Parameters<typeof renderSkippedCheck>[1], string, string, string[]]>([
    ["failOn never: skipped, whatever is open", { failOn: "never", open: open("critical") }, "skipped", "Skipped", []],
    ["a gate and nothing open at its level: neutral", { failOn: "critical", open: open("warning") }, "neutral", "Skipped", ["- Passing: no open critical finding (review.failOn: critical)."]],
    [
      "a gate and a critical open: failure, listing it with its thread",
      { failOn: "critical", open: [{ severity: "critical", path: "src/a.ts", line: 10, title: "`a` is null here", url: "https://github.com/o/r/pull/3#discussion_r9" }, ...open("suggestion")] },
      "failure",
      "Not reviewed · 1 open critical finding",
      ["- Failing: 1 open critical finding (review.failOn: critical):\n  - **Critical** `src/a.ts:10` — `a` is null here ([thread](https://github.com/o/r/pull/3#discussion_r9))"],
    ],
    [
      "failOn warning lists criticals and warnings, a range as from-to",
      { failOn: "warning", open: [{ severity: "warning", path: "b.ts", line: 3, endLine: 5, title: "slow", url: "https://github.com/o/r/pull/3#pullrequestreview-4" }, ...open("critical")] },
      "failure",
      "Not reviewed · 2 open critical or warning findings",
      [
        "- Failing: 2 open critical or warning findings (review.failOn: warning):\n  - **Warning** `b.ts:3-5` — slow ([thread](https://github.com/o/r/pull/3#pullrequestreview-4))\n  - **Critical** `src/a.ts:1` — finding 1",
      ],
    ],
  ])("%s", (_what, gate, conclusion, title, lines) => {
    const { conclusion: c, output } = renderSkippedCheck("the title contains \"WIP\" (review.ignoreTitles)", gate);
    expect(c).toBe(conclusion);
    expect(output).toEqual({ title, summary: ['Not reviewed automatically: the title contains "WIP" (review.ignoreTitles).', ...lines].join("\n\n") });
  });
});
