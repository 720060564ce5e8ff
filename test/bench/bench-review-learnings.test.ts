/**
 * bench:review's learnings pass: the oracle's dismissals of the clean PRs' false positives become
 * learnings (a kind dismissed twice, unless it found a real bug), merged on each case's default
 * branch and read back as a review job reads them; the noisy player drops what a learning in its
 * request names, and nothing else.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectSandbox } from "../../src/tools/sandbox.js";
import { bugLinesOf, type ReviewCase } from "../../bench/review/case-set.js";
import { learningText, proposeLearnings, renderLearningsPass, runLearningsPass } from "../../bench/review/learnings-pass.js";
import { noisyKind } from "../../bench/review/players.js";
import { runReviewSuite } from "../../bench/review/run-suite.js";
import type { CaseResult } from "../../bench/review/score.js";
import { learningId, renderLearnings } from "../../src/learnings/learnings-file.js";

const sandbox = await detectSandbox();
const skipNote = sandbox.available ? "" : ` — SKIPPED: no sandbox (${sandbox.reason})`;

const INDEX = ["'use strict';", "// helpers", "function last(list) {", "  return list[list.length - 1];", "}", "module.exports = { last };", ""].join("\n");
const patch = (hunk: string) => `diff --git a/index.js b/index.js\n--- a/index.js\n+++ b/index.js\n${hunk}`;
const meta = { package: "fixture", version: "1.0.0", integrity: "", licence: "MIT", origin: "test", set: "easy" as const, body: "", repro: [] };
const CASES: ReviewCase[] = ([
  { ...meta, id: "bug-last", kind: "bug", bugKind: "off-by-one", title: "Simplify last", patch: patch("@@ -3,3 +3,3 @@\n function last(list) {\n-  return list[list.length - 1];\n+  return list[list.length];\n }\n"), bugLines: [] },
  { ...meta, id: "clean-a", kind: "clean", bugKind: "docs", title: "Comment", patch: patch("@@ -1,3 +1,3 @@\n 'use strict';\n-// helpers\n+// Small helpers.\n function last(list) {\n"), bugLines: [] },
  { ...meta, id: "clean-b", kind: "clean", bugKind: "docs", title: "Comment", patch: patch("@@ -1,3 +1,3 @@\n 'use strict';\n-// helpers\n+// The last item of a list.\n function last(list) {\n"), bugLines: [] },
  { ...meta, id: "clean-c", kind: "clean", bugKind: "refactor", title: "Name", patch: patch("@@ -5,2 +5,2 @@\n }\n-module.exports = { last };\n+module.exports = { last: last };\n"), bugLines: [] },
] satisfies ReviewCase[]).map((c) => ({ ...c, bugLines: c.kind === "bug" ? bugLinesOf(c.patch) : [] }));

const result = (c: string, player: string, findings: CaseResult["findings"]): CaseResult => ({ case: c, player, run: 1, status: "done", findings, costUsd: 0, costEstimate: false, wallMs: 1 });

describe("the learnings the team merges after the first pass", () => {
  it("noisy's kinds come from the file and the line alone", () => {
    expect([noisyKind("README.md", "x"), noisyKind("test/a.test.mjs", "x"), noisyKind("index.js", "  // hi"), noisyKind("index.js", "return 1;")]).toEqual(["documentation wording", "test code", "comment wording", "code change"]);
  });

  it("a kind dismissed on two clean PRs becomes a learning; once is not enough; one that found a bug is vetoed", () => {
    const f = (kind: string, line = 2) => ({ path: "index.js", line, severity: "critical" as const, kind });
    const results = [
      result("clean-a", "p", [f("comment wording"), f("code change")]),
      result("clean-b", "p", [f("comment wording"), f("code change")]),
      result("clean-c", "p", [f("documentation wording"), { ...f("style"), severity: "suggestion" }]),
      result("bug-last", "p", [f("code change", 4)]),
    ];
    const proposed = proposeLearnings("p", results, CASES);
    const text = learningText("comment wording", ["clean-a", "clean-b"]);
    expect(text).toBe('Findings of the kind "comment wording" are false positives in this repository: don\'t flag them (2 dismissals: clean-a, clean-b).');
    expect(proposed.learnings).toEqual([{ id: learningId(text), kind: "comment wording", text }]);
    expect(proposed.vetoed).toEqual(["code change"]);
    expect(proposed.file).toBe(renderLearnings({ learnings: [{ id: learningId(text), text }] }));
  });

  it("renders the figures beside the goals", () => {
    const text = renderLearningsPass([{ player: "noisy", merged: 1, vetoed: ["code change"], falsePositives: { before: 3, after: 1 }, recall: { before: 1, after: 1 }, suppressed: 2 }]);
    expect(text.split("\n").slice(2)).toEqual([
      'noisy: 1 learning(s) merged; vetoed (found a real bug): "code change"; the reviewer left out 2 finding(s) citing them.',
      "✓ false positives on clean PRs 3 → 1 (−67%; goal −50% or better)",
      "✓ recall 100% → 100% (goal: unchanged)",
    ]);
    const none = renderLearningsPass([{ player: "null", merged: 0, vetoed: [], falsePositives: { before: 0, after: 0 }, recall: { before: 0, after: 0 }, suppressed: 0 }]);
    expect(none.split("\n")[3]).toBe("– false positives on clean PRs 0 → 0 (none to dismiss)");
  });
});

describe.skipIf(!sandbox.available)(`bench:review's learnings pass on local cases${skipNote}`, () => {
  let work: string;
  let source: string;
  const suite = () => ({ cases: CASES, runs: 1, sandbox, from: () => ({ source }), proofBudget: { max: 5, seconds: 60 }, concurrency: 2, timeoutMs: 60_000 });
  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), "crewbot-bench-learn-test-"));
    source = path.join(work, "fixture");
    await mkdir(source);
    await writeFile(path.join(source, "index.js"), INDEX);
  });
  afterAll(async () => rm(work, { recursive: true, force: true }));

  it("noisy's false positives on the clean PRs fall by the dismissed kind, recall unchanged; the learnings came from the default branch", async () => {
    const first = await runReviewSuite({ ...suite(), players: ["noisy", "null"] });
    const { rows, results } = await runLearningsPass(["noisy", "null"], first, CASES, (player, learningsFile) => runReviewSuite({ ...suite(), players: [player as "noisy"], learningsFile }));
    expect(rows).toEqual([
      { player: "noisy", merged: 1, vetoed: [], falsePositives: { before: 3, after: 1 }, recall: { before: 1, after: 1 }, suppressed: 2 },
      { player: "null", merged: 0, vetoed: [], falsePositives: { before: 0, after: 0 }, recall: { before: 0, after: 0 }, suppressed: 0 },
    ]);
    const id = learningId(learningText("comment wording", ["clean-a", "clean-b"]));
    expect(results.filter((r) => r.player === "noisy").map((r) => [r.case, r.findings.map((f) => f.kind), r.learnings ?? []]).sort()).toEqual([
      ["bug-last", ["code change"], []],
      ["clean-a", [], [{ id, suppressed: 1 }]],
      ["clean-b", [], [{ id, suppressed: 1 }]],
      ["clean-c", ["code change"], []],
    ]);
  }, 120_000);

  it("a learning that names another kind drops nothing: noisy follows the text it is given, not a list of its own", async () => {
    const other = learningText("documentation wording", ["x", "y"]);
    const played = await runReviewSuite({ ...suite(), cases: [CASES[1]!], players: ["noisy"], learningsFile: renderLearnings({ learnings: [{ id: learningId(other), text: other }] }) });
    expect(played.map((r) => [r.findings.map((f) => f.kind), r.learnings])).toEqual([[["comment wording"], undefined]]);
  }, 60_000);
});
