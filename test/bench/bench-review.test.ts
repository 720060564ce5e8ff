import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectSandbox } from "../../src/tools/sandbox.js";
import { bugLinesOf, loadCases, REPRO_DIR, type ReviewCase } from "../../bench/review/case-set.js";
import { runReviewSuite } from "../../bench/review/run-suite.js";
import { findsBug, goals, renderScores, score, type CaseResult } from "../../bench/review/score.js";
import { DEFAULT_BUDGETS } from "../../src/agent/budget.js";
import { fakeClient, startFakeAnthropic, type FakeServer } from "../helpers/fake-anthropic.js";

const sandbox = await detectSandbox();
const skipNote = sandbox.available ? "" : ` — SKIPPED: no sandbox (${sandbox.reason})`;

// A small local package: the cases are built from it, so the test needs no registry.
const INDEX = [
  "'use strict';",
  "// helpers",
  "function clamp(n, lo, hi) {",
  "  if (n < lo) return lo;",
  "  if (n > hi) return hi;",
  "  return n;",
  "}",
  "function last(list) {",
  "  return list[list.length - 1];",
  "}",
  "module.exports = { clamp, last };",
  "",
].join("\n");

const patch = (hunk: string) => `diff --git a/index.js b/index.js\n--- a/index.js\n+++ b/index.js\n${hunk}`;
const repro = (name: string, body: string) => ({ path: `${REPRO_DIR}/${name}`, content: `import { test } from 'node:test';\nimport assert from 'node:assert';\nimport m from '../index.js';\ntest('${name}', () => { ${body} });\n` });
const meta = { package: "fixture", version: "1.0.0", integrity: "", licence: "MIT", origin: "test", set: "easy" as const };

const CASES: ReviewCase[] = ([
  {
    ...meta,
    id: "clamp-operator",
    kind: "bug",
    bugKind: "wrong operator",
    title: "Tidy clamp",
    body: "",
    patch: patch("@@ -3,4 +3,4 @@\n function clamp(n, lo, hi) {\n   if (n < lo) return lo;\n-  if (n > hi) return hi;\n+  if (n < hi) return hi;\n   return n;\n"),
    bugLines: [],
    repro: [repro("clamp.test.mjs", "assert.strictEqual(m.clamp(5, 0, 3), 3);")],
  },
  {
    ...meta,
    id: "last-off-by-one",
    kind: "bug",
    bugKind: "off-by-one",
    title: "Simplify last",
    body: "",
    patch: patch("@@ -8,3 +8,3 @@\n function last(list) {\n-  return list[list.length - 1];\n+  return list[list.length];\n }\n"),
    bugLines: [],
    repro: [repro("last.test.mjs", "assert.strictEqual(m.last([1, 2]), 2);")],
  },
  {
    ...meta,
    id: "clean-comment",
    kind: "clean",
    bugKind: "docs",
    title: "Say what the helpers are",
    body: "",
    patch: patch("@@ -1,3 +1,3 @@\n 'use strict';\n-// helpers\n+// Small helpers: clamp and last.\n function clamp(n, lo, hi) {\n"),
    bugLines: [],
    repro: [],
  },
] satisfies ReviewCase[]).map((c) => ({ ...c, bugLines: c.kind === "bug" ? bugLinesOf(c.patch) : [] }));

describe("bench:review's cases", () => {
  it("has at least 24 cases: bugs of every kind asked for with lines and a reproducer, and at least 8 clean PRs", async () => {
    const cases = await loadCases();
    expect(cases.length).toBeGreaterThanOrEqual(24);
    expect(cases.filter((c) => c.kind === "clean").length).toBeGreaterThanOrEqual(8);
    const kinds = new Set(cases.map((c) => c.bugKind));
    for (const kind of ["off-by-one", "wrong operator", "missing await", "unhandled null", "wrong regex", "resource leak"]) expect(kinds).toContain(kind);
    for (const c of cases.filter((x) => x.kind === "bug")) {
      expect(c.bugLines.length, c.id).toBeGreaterThan(0);
      expect(c.repro.length, c.id).toBeGreaterThan(0);
    }
    expect(cases.filter((c) => c.id.startsWith("task-"))).toHaveLength(13);
  });

  it("takes a bug's lines from its patch: the added lines, or where a deletion was", () => {
    expect(CASES.map((c) => c.bugLines)).toEqual([[{ path: "index.js", from: 5, to: 5 }], [{ path: "index.js", from: 9, to: 9 }], []]);
    const deletion = patch("@@ -4,4 +4,3 @@\n   if (n < lo) return lo;\n-  if (n > hi) return hi;\n   return n;\n }\n");
    expect(bugLinesOf(deletion)).toEqual([{ path: "index.js", from: 5, to: 5 }]);
    expect(bugLinesOf("diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-a\n+b\n")).toEqual([]);
  });

  it("a finding finds a bug within ±3 lines, in the bug's file", () => {
    const c = { bugLines: [{ path: "a.js", from: 10, to: 12 }] };
    expect([6, 7, 15, 16].map((line) => findsBug({ path: "a.js", line, severity: "warning" }, c))).toEqual([false, true, true, false]);
    expect(findsBug({ path: "a.js", line: 1, endLine: 7, severity: "warning" }, c)).toBe(true);
    expect(findsBug({ path: "b.js", line: 10, severity: "warning" }, c)).toBe(false);
  });
});

describe.skipIf(!sandbox.available)(`bench:review's scripted players on local cases${skipNote}`, () => {
  let work: string;
  let results: CaseResult[];
  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), "crewbot-bench-review-test-"));
    const source = path.join(work, "fixture");
    await mkdir(source);
    await writeFile(path.join(source, "index.js"), INDEX);
    await writeFile(path.join(source, "package.json"), '{ "name": "fixture", "version": "1.0.0", "license": "MIT" }\n');
    results = await runReviewSuite({
      cases: CASES,
      runs: 1,
      players: ["oracle", "null", "noisy"],
      sandbox,
      from: () => ({ source }),
      proofBudget: { max: 5, seconds: 60 },
      concurrency: 2,
      timeoutMs: 60_000,
    });
  }, 120_000);
  afterAll(async () => rm(work, { recursive: true, force: true }));

  it("every play finished", () => {
    expect(results.map((r) => `${r.case} ${r.player} ${r.status}`).sort()).toEqual(
      ["clamp-operator", "clean-comment", "last-off-by-one"].flatMap((c) => ["noisy", "null", "oracle"].map((p) => `${c} ${p} done`)).sort(),
    );
  });

  it("the oracle scores 100 %, its findings reproduced through prove", () => {
    expect(score("oracle", results, CASES)).toEqual({
      player: "oracle",
      bugCases: 2,
      cleanCases: 1,
      recall: 1,
      precision: 1,
      f1: 1,
      falseBlocks: { critical: 0, reproduced: 0 },
      reproducedShare: 1,
      precisionReproduced: 1,
      findings: 2,
      usdPerCase: 0,
      secondsPerCase: expect.any(Number),
      costEstimate: false,
      unfinished: 0,
    });
  });

  it("the null player scores 0, with no precision to speak of", () => {
    expect(score("null", results, CASES)).toEqual({
      player: "null",
      bugCases: 2,
      cleanCases: 1,
      recall: 0,
      f1: 0,
      falseBlocks: { critical: 0, reproduced: 0 },
      findings: 0,
      usdPerCase: 0,
      secondsPerCase: expect.any(Number),
      costEstimate: false,
      unfinished: 0,
    });
  });

  it("the noisy player finds every bug, blocks every clean PR with failOn: critical, none with failOn: reproduced", () => {
    const s = score("noisy", results, CASES);
    expect(s).toEqual({
      player: "noisy",
      bugCases: 2,
      cleanCases: 1,
      recall: 1,
      precision: 2 / 3,
      f1: 0.8,
      falseBlocks: { critical: 1, reproduced: 0 },
      reproducedShare: 0,
      precisionUnverified: 2 / 3,
      findings: 3,
      usdPerCase: 0,
      secondsPerCase: expect.any(Number),
      costEstimate: false,
      unfinished: 0,
    });
    expect(goals(s).map((g) => g.met)).toEqual([false, true]);
  });

  it("crewbot's reviewer at each level runs the chain a review job runs: standard and deep prove, quick and no-prove have no such tool; the one-pass baselines have no tools, one of them the changed files whole", async () => {
    const repro = CASES[0]!.repro;
    const use = (name: string, input: unknown) => ({ content: [{ type: "tool_use" as const, name, input }] });
    // The reviewer proves its finding, then submits it; the one-pass baselines answer in one text.
    const fake: FakeServer = await startFakeAnthropic((request) => {
      const system = JSON.stringify(request.body.system);
      const turn = (request.body.messages as Array<{ role: string }>).filter((m) => m.role === "assistant").length;
      if (!system.includes("You are the reviewer of crewbot")) return { text: "## Critical\n- index.js:5 - `n < hi` returns hi for every n below it.\n## Summary\nOne bug." };
      const hasProve = (request.body.tools as Array<{ name: string }>).some((t) => t.name === "prove");
      if (turn === 0 && hasProve) return use("prove", { finding: 0, severity: "critical", files: repro, command: `node --test ${repro[0]!.path}`, behaviourChange: true });
      return use("submit_review", { summary: "One bug.", findings: [{ path: "index.js", line: 5, severity: "critical", body: "`n < hi` returns hi for every n below it." }] });
    });
    try {
      const source = path.join(work, "fixture");
      const players = ["crewbot:standard", "crewbot:deep", "crewbot:no-prove", "crewbot:quick", "one-pass", "one-pass+files"] as const;
      const played = await runReviewSuite({
        cases: [CASES[0]!],
        runs: 1,
        players,
        sandbox,
        from: () => ({ source }),
        model: { client: fakeClient(fake.url), model: "claude-sonnet-5-5", budgets: DEFAULT_BUDGETS },
        proofBudget: { max: 5, seconds: 60 },
        concurrency: 1,
        timeoutMs: 60_000,
      });
      const found = { path: "index.js", line: 5, severity: "critical" };
      expect(played.map((r) => [r.player, r.status, r.findings])).toEqual([
        ["crewbot:standard", "done", [{ ...found, reproduced: true }]],
        ["crewbot:deep", "done", [{ ...found, reproduced: true }]],
        ["crewbot:no-prove", "done", [found]],
        ["crewbot:quick", "done", [found]],
        ["one-pass", "done", [found]],
        ["one-pass+files", "done", [found]],
      ]);
      expect(played.every((r) => r.costUsd > 0)).toBe(true);
      expect(played.filter((r) => r.player.startsWith("crewbot:")).every((r) => r.cache !== undefined)).toBe(true);
      const reviewerTools = fake.requests.filter((q) => JSON.stringify(q.body.system).includes("You are the reviewer of crewbot")).map((q) => (q.body.tools as Array<{ name: string }>).map((t) => t.name));
      expect(reviewerTools.filter((names) => names.length === 1 && names[0] === "submit_review")).toHaveLength(1);
      const oneShots = fake.requests.filter((q) => !JSON.stringify(q.body.system).includes("You are the reviewer of crewbot"));
      expect(oneShots.map((q) => q.body.tools)).toEqual([undefined, undefined]);
      const withFiles = oneShots.find((q) => JSON.stringify(q.body.messages).includes("<changed_files>"))!;
      expect(JSON.stringify(withFiles.body.system)).toContain("the whole new version of each changed file");
      expect(JSON.stringify(withFiles.body.messages)).toContain('<file path=\\"index.js\\">\\n\'use strict\';');
    } finally {
      await fake.close();
    }
  }, 120_000);

  it("with a first-look model, crewbot's standard level asks it first; a look naming no hunk makes the review one look", async () => {
    const fake: FakeServer = await startFakeAnthropic((request) => {
      if (request.body.tool_choice) return { content: [{ type: "tool_use", name: "name_risky_hunks", input: { hunks: [] } }] };
      return { content: [{ type: "tool_use", name: "submit_review", input: { summary: "Fine.", findings: [] } }] };
    });
    try {
      const played = await runReviewSuite({
        cases: [CASES[0]!],
        runs: 1,
        players: ["crewbot:standard"],
        sandbox,
        from: () => ({ source: path.join(work, "fixture") }),
        model: { client: fakeClient(fake.url), model: "claude-sonnet-5-5", budgets: DEFAULT_BUDGETS, firstLookModel: "claude-haiku-4-5" },
        proofBudget: { max: 5, seconds: 60 },
        concurrency: 1,
        timeoutMs: 60_000,
      });
      expect(played.map((r) => [r.status, r.findings])).toEqual([["done", []]]);
      expect(fake.requests.map((q) => [q.body.model, (q.body.tools as Array<{ name: string }>).map((t) => t.name)])).toEqual([
        ["claude-haiku-4-5", ["name_risky_hunks"]],
        ["claude-sonnet-5-5", ["submit_review"]],
      ]);
    } finally {
      await fake.close();
    }
  }, 120_000);

  it("renders the figures beside the goals, with the key and the anchors", () => {
    const scores = ["oracle", "null", "noisy"].map((p) => score(p, results, CASES));
    const text = renderScores("demo", CASES, results, scores, [{ player: "oracle", checks: goals(scores[0]!, scores[2]) }]);
    expect(text).toContain("| clamp-operator  | wrong operator | 1/1 🔬1 | 0/0  | 1/1   |");
    expect(text).toMatch(/\| noisy  \| 100% +\| 67% +\| 80% +\| 100% +\| 0% +\| 0% +\| – +\| 67% +\| \$0\.000 \|/);
    expect(text).toContain("✓ recall ≥ 80% at precision ≥ 85%: recall 100%, precision 100%");
    expect(text).toContain("✓ 0 false blocks with failOn: reproduced: 0% of clean PRs");
    expect(text).toContain("F1 above the one-pass baseline's at ≤ 2× its cost");
    expect(text).toContain("Key: recall = ");
    expect(text).toContain("Qodo F1 60 %");
  });
});

describe("bench:review's scores", () => {
  const bug: ReviewCase = { ...CASES[0]! };
  const clean: ReviewCase = { ...CASES[2]! };
  const r = (c: ReviewCase, player: string, findings: CaseResult["findings"], costUsd = 0.1, status = "done"): CaseResult => ({ case: c.id, player, run: 1, status, findings, costUsd, costEstimate: false, wallMs: 2000 });

  it("counts precision of reproduced and unverified findings apart, suggestions not at all, and a crash as no findings", () => {
    const results = [
      r(bug, "p", [{ path: "index.js", line: 5, severity: "critical", reproduced: true }, { path: "index.js", line: 40, severity: "warning" }, { path: "index.js", line: 5, severity: "suggestion" }]),
      r(clean, "p", [{ path: "index.js", line: 2, severity: "warning", reproduced: true }]),
      r(CASES[1]!, "p", [], 0.4, "crash: boom"),
    ];
    const s = score("p", results, CASES);
    expect(s).toMatchObject({ recall: 0.5, precision: 1 / 3, falseBlocks: { critical: 0, reproduced: 1 }, reproducedShare: 2 / 3, precisionReproduced: 0.5, precisionUnverified: 0, findings: 3, secondsPerCase: 2, unfinished: 1 });
    expect(s.usdPerCase).toBeCloseTo(0.2, 10);
  });

  it("the baseline goal needs a higher F1 at no more than twice the cost", () => {
    const base = { ...score("b", [r(bug, "b", [{ path: "index.js", line: 5, severity: "critical" }], 0.1)], [bug]) };
    const better = score("c", [r(bug, "c", [{ path: "index.js", line: 5, severity: "critical" }], 0.3)], [bug]);
    expect(goals({ ...better, f1: 1 }, { ...base, f1: 0.5 }).at(-1)).toMatchObject({ met: false, figure: "F1 100% vs 50%, cost 3.00×" });
    expect(goals({ ...better, f1: 1, usdPerCase: 0.2 }, { ...base, f1: 0.5 }).at(-1)).toMatchObject({ met: true });
  });
});
