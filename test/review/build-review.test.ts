import { describe, expect, it } from "vitest";
import type { Finding, ParsedReview, Severity } from "../../src/review/types.js";
import {
  buildReview,
  MAX_BODY_CHARS,
  MAX_COMMENT_CHARS,
  placeFinding,
  type ReviewComment,
} from "../../src/review/build-review.js";
import { parseDiff } from "../../src/review/diff-lines.js";
import { fingerprint, postedFingerprints } from "../../src/review/fingerprint.js";
import { selectFiles, type Selection } from "../../src/review/select-files.js";

// src/a.ts: hunk 0 = new lines 2-8 (5 added; old 5 deleted), hunk 1 = new lines 22-28 (25 added).
const diff = [
  "diff --git a/src/a.ts b/src/a.ts",
  "--- a/src/a.ts",
  "+++ b/src/a.ts",
  "@@ -2,7 +2,7 @@",
  " 2", " 3", " 4", "-5", "+five", " 6", " 7", " 8",
  "@@ -22,6 +22,7 @@",
  " 22", " 23", " 24", "+24.5", " 25", " 26", " 27",
  "diff --git a/gone.ts b/gone.ts",
  "deleted file mode 100644",
  "--- a/gone.ts",
  "+++ /dev/null",
  "@@ -1,3 +0,0 @@",
  "-a", "-b", "-c",
  "diff --git a/old.ts b/new.ts",
  "similarity index 90%",
  "rename from old.ts",
  "rename to new.ts",
  "--- a/old.ts",
  "+++ b/new.ts",
  "@@ -10,3 +10,3 @@",
  " x", "-y", "+Y", " z",
  "diff --git a/yarn.lock b/yarn.lock",
  "--- a/yarn.lock",
  "+++ b/yarn.lock",
  "@@ -1 +1 @@",
  "-a", "+b",
  "",
].join("\n");
const files = parseDiff(diff);
const selection = selectFiles(files);

const f = (path: string, line: number, endLine?: number, severity: Severity = "warning", text = `issue at ${line}`): Finding =>
  endLine === undefined ? { path, line, severity, text } : { path, line, endLine, severity, text };

const review = (findings: Finding[], extra: Partial<ParsedReview> = {}): ParsedReview => ({
  findings,
  summary: "",
  notes: [],
  ...extra,
});

const position = (c: ReviewComment) => {
  const { body: _body, ...rest } = c;
  return rest;
};

describe("placeFinding", () => {
  it.each<[string, Finding, Omit<ReviewComment, "body"> | null]>([
    ["an added line", f("src/a.ts", 5), { path: "src/a.ts", line: 5, side: "RIGHT" }],
    ["a context line", f("src/a.ts", 2), { path: "src/a.ts", line: 2, side: "RIGHT" }],
    ["a line between hunks", f("src/a.ts", 15), null],
    ["just outside a hunk", f("src/a.ts", 9), null],
    ["a range in one hunk", f("src/a.ts", 3, 6), { path: "src/a.ts", start_line: 3, start_side: "RIGHT", line: 6, side: "RIGHT" }],
    ["a range across hunks falls back to its end", f("src/a.ts", 5, 25), { path: "src/a.ts", line: 25, side: "RIGHT" }],
    ["a range whose end is outside falls to the body", f("src/a.ts", 7, 12), null],
    ["a range starting outside keeps its end", f("src/a.ts", 18, 23), { path: "src/a.ts", line: 23, side: "RIGHT" }],
    ["a deleted file is on LEFT", f("gone.ts", 2), { path: "gone.ts", line: 2, side: "LEFT" }],
    ["a range on a deleted file", f("gone.ts", 1, 3), { path: "gone.ts", start_line: 1, start_side: "LEFT", line: 3, side: "LEFT" }],
    ["a renamed file's new path", f("new.ts", 11), { path: "new.ts", line: 11, side: "RIGHT" }],
    ["a renamed file's old path is LEFT of the new path", f("old.ts", 11), { path: "new.ts", line: 11, side: "LEFT" }],
    ["a path not in the diff", f("src/other.ts", 5), null],
  ])("%s", (_name, finding, expected) => {
    const built = buildReview(review([finding]), files, selection);
    expect(built.request.comments.map(position)).toEqual(expected ? [expected] : []);
    const placement = placeFinding(finding, files);
    expect(placement === null).toBe(expected === null);
    if (expected === null) expect(built.request.body).toContain(`issue at ${finding.line}`);
  });
});

describe("buildReview", () => {
  it("writes the severity and a fingerprint marker into each comment", () => {
    const finding = f("src/a.ts", 5, undefined, "critical", "Crashes on `null`");
    const { request } = buildReview(review([finding]), files, selection);
    expect(request.comments[0]!.body).toBe(`**Critical** — Crashes on \`null\`\n\n<!-- crewbot:finding:${fingerprint(finding, "five")} -->`);
  });

  it("says which lines a range meant when it fell back to one line", () => {
    const { request } = buildReview(review([f("src/a.ts", 5, 25)]), files, selection);
    expect(request.comments[0]!.body).toMatch(/^\*\*Warning\*\* _\(lines 5–25\)_ — /);
  });

  it("caps inline comments, most severe first, the rest in the body", () => {
    const findings = [
      ...Array.from({ length: 20 }, (_, i) => f("src/a.ts", 2 + (i % 7), undefined, "suggestion", `s${i}`)),
      ...Array.from({ length: 20 }, (_, i) => f("src/a.ts", 22 + (i % 7), undefined, "critical", `c${i}`)),
    ];
    const built = buildReview(review(findings), files, selection);
    expect(built.request.comments).toHaveLength(25);
    expect(built.request.comments.filter((c) => c.body.startsWith("**Critical**"))).toHaveLength(20);
    expect(built.counts).toEqual({ critical: 20, warning: 0, suggestion: 20 });
    const everywhere = [built.request.body, ...built.request.comments.map((c) => c.body)];
    expect(postedFingerprints(everywhere).size).toBe(40);
    expect(built.request.body).toContain("**20 critical · 0 warnings · 20 suggestions** — 25 inline comments");
    expect(built.request.body).toContain("- **Suggestion** `src/a.ts:2` — s7 <!-- crewbot:finding:");
  });

  it("puts the summary, notes, other findings by file, and every file not reviewed in the body", () => {
    const built = buildReview(
      review([f("src/x.ts", 3, 4, "critical", "Bad\n```ts\ncode\n```"), f("src/a.ts", 15)], {
        summary: "Looks fine overall.",
        notes: [{ severity: "suggestion", text: "Consider docs." }, { severity: "critical", text: "No tests." }],
      }),
      files,
      selection,
    );
    const body = built.request.body;
    expect(body).toContain("Looks fine overall.");
    expect(body.indexOf("**Critical** — No tests.")).toBeLessThan(body.indexOf("**Suggestion** — Consider docs."));
    expect(body).toContain("#### `src/x.ts`\n\n- **Critical** `src/x.ts:3-4` — Bad\n  ```ts\n  code\n  ```\n  <!-- crewbot:finding:");
    expect(body).toContain("#### `src/a.ts`\n\n- **Warning** `src/a.ts:15` — issue at 15");
    expect(body).toContain("Reviewed 2 of 4 changed files.");
    expect(body).toContain("- `gone.ts` — deleted");
    expect(body).toContain("- `yarn.lock` — lockfile");
    expect(built.counts).toEqual({ critical: 2, warning: 1, suggestion: 1 });
    expect(built.clean).toBe(false);
  });

  it.each<[string, ParsedReview, boolean]>([
    ["no findings, no notes", review([], { summary: "All good." }), true],
    ["a note only", review([], { notes: [{ severity: "warning", text: "x" }] }), false],
    ["a finding only", review([f("src/a.ts", 5)]), false],
    ["notes missing", { findings: [], summary: "" }, true],
  ])("clean: %s → %s", (_name, parsed, clean) => {
    const built = buildReview(parsed, files, selection);
    expect(built.clean).toBe(clean);
    if (clean) expect(built.request.body).toContain("Nothing to comment on.");
    expect(built.request.body).toContain("### Not reviewed");
  });

  it("skips findings posted before, even after their line moved", () => {
    const earlier = buildReview(review([f("src/a.ts", 5, undefined, "warning", "Rename this")]), files, selection);
    const posted = postedFingerprints(earlier.request.comments.map((c) => c.body));
    const lineText = (_path: string, line: number) => (line === 5 || line === 40 ? "five" : undefined);
    const later = buildReview(
      review([f("src/a.ts", 40, undefined, "warning", "Rename this"), f("src/a.ts", 6, undefined, "warning", "New")]),
      files,
      selection,
      { alreadyPosted: posted, lineText },
    );
    expect(later.repeated).toBe(1);
    expect(later.request.comments.map((c) => c.line)).toEqual([6]);
    expect(later.request.body).toContain("1 finding already posted on an earlier review is not repeated.");
    expect(later.counts.warning).toBe(1);
    const nothingNew = buildReview(review([f("src/a.ts", 5, undefined, "warning", "Rename this")]), files, selection, { alreadyPosted: posted });
    expect(nothingNew.clean).toBe(true);
  });

  it("keeps a huge comment under GitHub's limit", () => {
    const { request } = buildReview(review([f("src/a.ts", 5, undefined, "warning", "x".repeat(100_000))]), files, selection);
    const body = request.comments[0]!.body;
    expect(body.length).toBeLessThan(MAX_COMMENT_CHARS);
    expect(body).toContain("… truncated");
    expect(postedFingerprints([body]).size).toBe(1);
  });

  it("truncates a huge body visibly, with code fences closed and the not-reviewed list kept", () => {
    const findings = Array.from({ length: 300 }, (_, i) => f("src/elsewhere.ts", i + 1, undefined, "warning", `${i}\n\`\`\`\n${"y".repeat(400)}\n\`\`\``));
    const many: Selection = {
      reviewed: selection.reviewed,
      notReviewed: Array.from({ length: 2000 }, (_, i) => ({ path: `vendor/pkg${i}/file.go`, reason: "vendored" as const })),
    };
    const body = buildReview(review(findings, { summary: "S" }), files, many).request.body;
    expect(body.length).toBeLessThanOrEqual(MAX_BODY_CHARS);
    expect(body).toContain("… truncated: the review was longer than GitHub allows");
    expect(body).toContain("2000 of 2002 changed files were not reviewed (2000 vendored):");
    expect(body).toMatch(/- … and \d+ more$/);
    const beforeNote = body.slice(0, body.indexOf("… truncated"));
    expect(beforeNote.split("\n").filter((l) => /^\s*```/.test(l)).length % 2).toBe(0);
  });
});

describe("committable suggestions", () => {
  const withFix = (line: number, endLine: number | undefined, suggestion: string, text = "Rename it."): Finding => ({ ...f("src/a.ts", line, endLine, "warning", text), suggestion });
  const bodyOf = (finding: Finding, options: Parameters<typeof buildReview>[3] = {}) => buildReview(review([finding]), files, selection, options).request;

  it("puts a block over exactly line..endLine when the range lies in one hunk, without the reviewer's own block in the text", () => {
    const finding = withFix(4, 5, "4\nFIVE\n", "Rename it.\n\n```suggestion\n4\nFIVE\n```");
    const { comments } = bodyOf(finding);
    expect(position(comments[0]!)).toEqual({ path: "src/a.ts", start_line: 4, start_side: "RIGHT", line: 5, side: "RIGHT" });
    expect(comments[0]!.body).toMatch(/^\*\*Warning\*\* — Rename it\.\n\n```suggestion\n4\nFIVE\n```\n\n<!-- crewbot:finding:[0-9a-f]{16} -->$/);
  });

  it.each<[string, Finding]>([
    ["a range across hunks", withFix(5, 25, "x\n")],
    ["a range starting between hunks", withFix(18, 23, "x\n")],
  ])("tells the fix in prose, with no block, for %s", (_name, finding) => {
    const { comments, body } = bodyOf(finding);
    const all = [body, ...comments.map((c) => c.body)].join("\n");
    expect(all).not.toContain("```suggestion");
    expect(all).toContain(`Suggested fix: replace lines ${finding.line}–${finding.endLine} with:\n`);
  });

  it("leaves blocks out with suggestions: false", () => {
    const { comments } = bodyOf(withFix(5, undefined, "FIVE"), { suggestions: false });
    expect(comments[0]!.body).not.toContain("```suggestion");
    expect(comments[0]!.body).toContain("Suggested fix: replace line 5 with:\n\n```\nFIVE\n```");
  });

  it("uses a fence longer than any backticks in the replacement", () => {
    const { comments } = bodyOf(withFix(5, undefined, "const s = ````;"));
    expect(comments[0]!.body).toContain("`````suggestion\nconst s = ````;\n`````");
  });

  it("keeps the file's CRLF line endings and indentation", () => {
    const crlf = parseDiff(
      ["diff --git a/w.cs b/w.cs", "--- a/w.cs", "+++ b/w.cs", "@@ -1,3 +1,3 @@", " class A {\r", "-  int x;\r", "+  int y;\r", "+  int z;\r", ""].join("\n").replace("@@ -1,3 +1,3 @@", "@@ -1,2 +1,3 @@"),
    );
    const finding: Finding = { path: "w.cs", line: 2, endLine: 3, severity: "suggestion", text: "One field.", suggestion: "int y, z;" };
    const { comments } = buildReview(review([finding]), crlf, selectFiles(crlf)).request;
    expect(comments[0]!.body).toContain("```suggestion\r\n  int y, z;\r\n```");
  });
});
