import { describe, expect, it } from "vitest";
import type { Finding, Severity } from "../../src/review/types.js";
import { buildReview } from "../../src/review/build-review.js";
import { parseDiff } from "../../src/review/diff-lines.js";
import { blocking, gateConclusion, type GateFinding } from "../../src/review/gate.js";
import { countProofs, proofSection, withProofs } from "../../src/review/proofs.js";
import { renderReviewCheck, type ReviewReport } from "../../src/review/render-review.js";
import { selectFiles } from "../../src/review/select-files.js";
import type { Proof } from "../../src/tools/proof-session.js";

const diff = ["diff --git a/lib.mjs b/lib.mjs", "--- a/lib.mjs", "+++ b/lib.mjs", "@@ -1,3 +1,3 @@", " // lib", "-export const add = (a, b) => a + b;", "+export const add = (a, b) => a - b;", " // end", ""].join("\n");
const files = parseDiff(diff);
const selection = selectFiles(files);
const finding = (severity: Severity, text: string, line = 2): Finding => ({ path: "lib.mjs", line, severity, text });

const REPRO = { path: "test/add.test.mjs", content: "import assert from 'node:assert';\nimport { add } from '../lib.mjs';\nassert.strictEqual(add(2, 2), 4);\n" };
const proof = (over: Partial<Proof>): Proof => ({
  finding: 0,
  command: "node test/add.test.mjs",
  files: [REPRO],
  behaviourChange: true,
  outcome: "reproduced",
  reason: "the command failed on the head (exit code 1) and passed on the base",
  head: { exitCode: 1, tail: "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n0 !== 4\n\n    at @mallory <!-- crewbot:finding:0123456789abcdef -->\n" },
  base: { exitCode: 0, tail: "" },
  ...over,
});

const withoutMarker = (body: string) => body.replace(/<!-- crewbot:finding:[0-9a-f]{16} -->$/, "<marker>");

describe("findings with proof in the review", () => {
  it("a reproduced finding shows 🔬 Reproduced, the command, the output's tail (pings and markers broken) and the reproducer folded", () => {
    const { findings } = withProofs([finding("critical", "`add` subtracts.")], [proof({})]);
    const built = buildReview({ summary: "One bug.", findings, notes: [] }, files, selection, { proofsRan: true });
    expect(withoutMarker(built.request.comments[0]!.body)).toBe(
      [
        "**Critical** — `add` subtracts.",
        "",
        "🔬 **Reproduced**: `node test/add.test.mjs` — the command failed on the head (exit code 1) and passed on the base.",
        "",
        "```text",
        "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
        "",
        "0 !== 4",
        "",
        "    at @\u200Bmallory <!-\u200B- crewbot:finding:0123456789abcdef -->",
        "```",
        "",
        "<details><summary>Reproducer: `test/add.test.mjs`</summary>",
        "",
        "`test/add.test.mjs`",
        "",
        "```text",
        "import assert from 'node:assert';",
        "import { add } from '../lib.mjs';",
        "assert.strictEqual(add(2, 2), 4);",
        "```",
        "",
        "</details>",
        "",
        "<marker>",
      ].join("\n"),
    );
    expect(built.annotations.map((a) => a.title)).toEqual(["Critical · 🔬 reproduced"]);
    // The proof's output cannot plant a fingerprint of its own.
    expect(built.request.comments[0]!.body.match(/<!-- crewbot:finding:/g)).toHaveLength(1);
  });

  it("critical and warning findings without a reproduction say unverified (an error says why); suggestions say nothing", () => {
    const { findings } = withProofs(
      [finding("warning", "No proof."), finding("critical", "Broken proof.", 1), finding("suggestion", "Nit.", 3)],
      [proof({ finding: 1, outcome: "error", reason: "on the head: timed out after 120 s (review.proofBudget.seconds)", head: { exitCode: null, tail: "", problem: "timed out" } })],
    );
    const built = buildReview({ summary: "s", findings, notes: [] }, files, selection, { proofsRan: true });
    expect(built.request.comments.map((c) => withoutMarker(c.body))).toEqual([
      "**Critical** — Broken proof.\n\n_unverified: the reproducer could not run (on the head: timed out after 120 s (review.proofBudget.seconds))._\n\n<marker>",
      "**Warning** — No proof.\n\n_unverified: no reproducer._\n\n<marker>",
      "**Suggestion** — Nit.\n\n<marker>",
    ]);
  });

  it("without proofs (a fork, review.prove: off) nothing is marked", () => {
    const built = buildReview({ summary: "s", findings: [finding("critical", "Bug.")], notes: [] }, files, selection);
    expect(withoutMarker(built.request.comments[0]!.body)).toBe("**Critical** — Bug.\n\n<marker>");
  });

  it("a reproducer that does not reproduce downgrades its finding to a suggestion and says so", () => {
    const refuted = proof({ outcome: "not reproduced", reason: "the command passed on the head", head: { exitCode: 0, tail: "ok\n" }, files: [] });
    const { findings } = withProofs([finding("critical", "`add` subtracts.")], [refuted]);
    expect(findings[0]).toMatchObject({ severity: "suggestion", refuted: "critical" });
    const built = buildReview({ summary: "s", findings, notes: [] }, files, selection, { proofsRan: true });
    expect(built.counts).toEqual({ critical: 0, warning: 0, suggestion: 1 });
    expect(withoutMarker(built.request.comments[0]!.body)).toBe(
      "**Suggestion** — `add` subtracts.\n\n🔬 **Not reproduced**: `node test/add.test.mjs` — the command passed on the head — downgraded from critical.\n\n<marker>",
    );
  });

  it("joins proofs by index, the last proof of an index counting; a proof naming no finding is returned apart", () => {
    const first = proof({ outcome: "not reproduced", reason: "passed" });
    const again = proof({});
    const stray = proof({ finding: 5 });
    const { findings, unmatched } = withProofs([finding("warning", "a"), finding("warning", "b")], [first, again, stray]);
    expect(findings.map((f) => f.proof?.outcome)).toEqual(["reproduced", undefined]);
    expect(unmatched).toEqual([stray]);
    expect(countProofs(findings)).toEqual({ reproduced: 1, unverified: 1, refuted: 0 });
  });

  it("a finding in the body (outside the diff) carries its proof too", () => {
    const { findings } = withProofs([finding("warning", "Elsewhere.", 40)], [proof({ files: [] })]);
    const built = buildReview({ summary: "s", findings, notes: [] }, files, selection, { proofsRan: true });
    expect(built.request.comments).toEqual([]);
    expect(built.request.body).toContain("- **Warning** `lib.mjs:40` — Elsewhere.\n\n  🔬 **Reproduced**: `node test/add.test.mjs`");
  });

  it("a finding the reviewer could not prove says why beside its unverified mark, as one escaped line", () => {
    const f = { ...finding("warning", "Object spread needs Node 8.3; engines says >=6."), unprovable: "needs Node 6,\nand only Node 20 runs here <img src=x> @mallory" };
    expect(proofSection(f, true)).toBe("_unverified: no reproducer_ — needs Node 6, and only Node 20 runs here &lt;img src=x> @\u200bmallory");
    expect(countProofs([f])).toEqual({ reproduced: 0, unverified: 1, refuted: 0 });
    expect(proofSection({ ...finding("suggestion", "x"), unprovable: "no runner" }, true)).toBe("");
  });

  it("proofSection is empty for a suggestion without a proof", () => {
    expect(proofSection(finding("suggestion", "x"), true)).toBe("");
  });
});

describe("the check run counts proofs", () => {
  const report = (o: Partial<ReviewReport>): ReviewReport => ({
    terminal: { kind: "done" },
    counts: { critical: 1, warning: 1, suggestion: 1 },
    clean: false,
    inline: 3,
    repeated: 0,
    headSha: "1234567890abcdef1234567890abcdef12345678",
    costUsd: 0,
    estimate: false,
    elapsedMs: 1000,
    ...o,
  });

  it("says how many findings were reproduced, unverified and refuted", () => {
    const { output } = renderReviewCheck(report({ proofs: { reproduced: 1, unverified: 1, refuted: 1 } }));
    expect(output.summary).toContain("- Proof: 1 reproduced · 1 unverified · 1 refuted.\n");
  });

  it("says why no proof ran", () => {
    const { output } = renderReviewCheck(report({ noProofs: "the pull request comes from a fork" }));
    expect(output.summary).toContain("- Proof: none run (the pull request comes from a fork).\n");
  });

  const at = (f: GateFinding, line: number) => ({ ...f, path: "src/a.js", line, title: `finding ${line}` });
  const reproduced = { severity: "critical" as const, reproduced: true };
  const unproven = { severity: "critical" as const, reproduced: false };
  it.each<[string, GateFinding[], string, string]>([
    ["a reproduced critical finding", [reproduced, unproven], "failure", "- Failing: 1 open reproduced finding (review.failOn: reproduced):\n  - **Critical** `src/a.js:1` — finding 1\n"],
    ["only unverified critical findings", [unproven, { severity: "warning" }], "success", "- Passing: no open reproduced finding (review.failOn: reproduced).\n"],
    ["a reproduced warning", [{ severity: "warning", reproduced: true }], "failure", "- Failing: 1 open reproduced finding (review.failOn: reproduced):\n  - **Warning** `src/a.js:1` — finding 1\n"],
    ["a reproduced suggestion only", [{ severity: "suggestion", reproduced: true }], "success", "- Passing: no open reproduced finding (review.failOn: reproduced).\n"],
  ])("failOn: reproduced with %s", (_what, gated, conclusion, line) => {
    const r = renderReviewCheck(report({ failOn: "reproduced", open: gated.map((f, i) => at(f, i + 1)), clean: false }));
    expect(r.conclusion).toBe(conclusion);
    expect(r.output.summary).toContain(line);
  });

  it.each<[string, GateFinding[], string]>([
    ["critical", [unproven], "failure"],
    ["warning", [{ severity: "warning" }], "failure"],
    ["reproduced", [unproven], "success"],
    ["never", [reproduced], "neutral"],
  ])("gateConclusion(%s) over this review's findings", (failOn, open, conclusion) => {
    expect(gateConclusion(failOn as "critical", "findings", open)).toBe(conclusion);
    expect(blocking(failOn as "critical", open).length > 0).toBe(conclusion === "failure");
  });
});
