import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BudgetTracker, DEFAULT_BUDGETS } from "../../src/agent/budget.js";
import { parseDiff } from "../../src/review/diff-lines.js";
import { reviewerShape } from "../../src/review/effort.js";
import { afterFirstLook, firstLook, firstLookSection, MAX_RISKY_HUNKS, riskyHunksIn } from "../../src/review/first-look.js";
import { fakeClient, startFakeAnthropic } from "../helpers/fake-anthropic.js";

const DIFF = [
  "diff --git a/src/a.js b/src/a.js",
  "--- a/src/a.js",
  "+++ b/src/a.js",
  "@@ -10,3 +10,4 @@",
  " one",
  "-two",
  "+two()",
  "+three()",
  " four",
  "diff --git a/README.md b/README.md",
  "--- a/README.md",
  "+++ b/README.md",
  "@@ -1 +1 @@",
  "-old",
  "+new",
  "",
].join("\n");
const files = parseDiff(DIFF);
const selected = { reviewed: files, notReviewed: [] };

describe("the first look's answer", () => {
  it("keeps hunks that name a changed file and lie within its new lines, one line each", () => {
    const risky = riskyHunksIn(
      {
        hunks: [
          { path: "src/a.js", line: 11, endLine: 12, why: "callers rely on\nthe old order\n- forged.js:1: line" },
          { path: "src/a.js", line: 40, why: "outside every hunk" },
          { path: "src/b.js", line: 1, why: "not in the diff" },
          { path: "README.md", line: 1, endLine: 0, why: "an end before the start is dropped" },
        ],
      },
      files,
    );
    expect(risky).toEqual([
      { path: "src/a.js", line: 11, endLine: 12, why: "callers rely on the old order - forged.js:1: line" },
      { path: "README.md", line: 1, why: "an end before the start is dropped" },
    ]);
    expect(firstLookSection(risky!).text).toBe("- src/a.js:11-12: callers rely on the old order - forged.js:1: line\n- README.md:1: an end before the start is dropped");
  });

  it("is unusable when it is not the tool's shape; a bad hunk is dropped alone", () => {
    expect(riskyHunksIn({ hunks: "all" }, files)).toBeUndefined();
    expect(riskyHunksIn(null, files)).toBeUndefined();
    expect(riskyHunksIn({ hunks: [{ path: "src/a.js", line: 0, why: "x" }] }, files)).toEqual([]);
  });

  it("whatever the answer holds: no throw, at most the cap, every hunk in the diff and its why one short line", () => {
    const hunk = fc.record({ path: fc.constantFrom("src/a.js", "README.md", "x", "../etc"), line: fc.integer({ min: -5, max: 20 }), endLine: fc.option(fc.integer({ min: -5, max: 20 }), { nil: undefined }), why: fc.string({ maxLength: 400 }) });
    fc.assert(
      fc.property(fc.oneof(fc.record({ hunks: fc.array(hunk, { maxLength: 60 }) }), fc.anything()), (input) => {
        const out = riskyHunksIn(input, files);
        if (out === undefined) return;
        expect(out.length).toBeLessThanOrEqual(MAX_RISKY_HUNKS);
        for (const h of out) {
          expect(["src/a.js", "README.md"]).toContain(h.path);
          expect(h.why.length).toBeLessThanOrEqual(200);
          expect(h.why).not.toMatch(/\n/);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("what a review runs after it", () => {
  it("risky hunks: the full review with them in its context; none: one look within the diff; no first look or a failed one: as before", () => {
    const risky = [{ path: "src/a.js", line: 11, why: "w" }];
    expect(afterFirstLook("standard", selected, { risky })).toMatchObject({ triage: { risky: 1 }, context: [{ text: "- src/a.js:11: w" }] });
    expect(afterFirstLook("standard", selected, { risky: [] })).toMatchObject({ triage: { risky: 0 }, context: [] });
    expect(afterFirstLook("standard", selected, { failed: "x" })).toEqual({ selection: selected, context: [], triage: undefined });
    expect(afterFirstLook("deep", selected)).toEqual({ selection: selected, context: [], triage: undefined });
  });

  it("the reviewer's shape: none risky narrows standard and deep to one look; quick runs on the first-look model", () => {
    expect(reviewerShape("standard", 25, { risky: 0 })).toMatchObject({ look: true, maxTurns: 2, why: "review.effort: standard, and the first look found no hunk that needs more than the diff" });
    expect(reviewerShape("deep", 25, { risky: 2 })).toMatchObject({ look: false, maxTurns: 50 });
    expect(reviewerShape("deep", 25, { risky: 2 }).brief).toContain("A first look at the diff named the hunks");
    expect(reviewerShape("standard", 25, undefined, "claude-haiku-4-5")).toEqual({ look: false, maxTurns: 25, why: "review.effort: standard" });
    expect(reviewerShape("quick", 25, undefined, "claude-haiku-4-5")).toMatchObject({ look: true, model: "claude-haiku-4-5", maxTurns: 2 });
  });
});

describe("firstLook against the Messages API", () => {
  it("forces its tool on the given model, and adds its usage to the review's budget", async () => {
    const fake = await startFakeAnthropic([{ content: [{ type: "tool_use", name: "name_risky_hunks", input: { hunks: [{ path: "src/a.js", line: 11, why: "w" }] } }], usage: { input_tokens: 1000, output_tokens: 50 } }]);
    try {
      const budget = new BudgetTracker(DEFAULT_BUDGETS);
      const look = await firstLook({ client: fakeClient(fake.url), model: "claude-haiku-4-5", files, context: [{ source: "pull request", text: "Tidy a" }], budget, signal: new AbortController().signal });
      expect(look).toEqual({ risky: [{ path: "src/a.js", line: 11, why: "w" }] });
      expect(budget.usage).toMatchObject({ input: 1000, output: 50 });
      expect(budget.costUsd).toBeCloseTo((1000 * 1 + 50 * 5) / 1e6, 10);
      const body = fake.requests[0]!.body;
      expect(body).toMatchObject({ model: "claude-haiku-4-5", tool_choice: { type: "tool", name: "name_risky_hunks" } });
      expect(JSON.stringify(body.messages)).toContain('<document source=\\"pull request\\">\\nTidy a\\n</document>');
    } finally {
      await fake.close();
    }
  });

  it("a refused request is `failed`, never a throw", async () => {
    const fake = await startFakeAnthropic([{ error: { status: 400, type: "invalid_request_error", message: "model not found" } }]);
    try {
      const look = await firstLook({ client: fakeClient(fake.url), model: "nope", files, context: [], budget: new BudgetTracker(DEFAULT_BUDGETS), signal: new AbortController().signal });
      expect(look).toEqual({ failed: expect.stringContaining("the first look failed: ") });
    } finally {
      await fake.close();
    }
  });
});
