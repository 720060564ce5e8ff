/**
 * Property-style: reviews built from findings on every line of real diffs (and around them) are
 * never refused by GitHub's validation — checked by test/helpers/github-review-check.ts, which
 * reads the diff on its own — and no finding is lost or needlessly pushed to the body.
 */
import { describe, expect, it } from "vitest";
import type { Finding, Severity } from "../../src/review/types.js";
import { buildReview } from "../../src/review/build-review.js";
import { parseDiff, type DiffFile } from "../../src/review/diff-lines.js";
import { postedFingerprints } from "../../src/review/fingerprint.js";
import { selectFiles } from "../../src/review/select-files.js";
import { githubReviewProblems } from "../helpers/github-review-check.js";
import { gitDiff, numbered } from "./git-fixture.js";

function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random replacements, insertions and deletions in a numbered file. */
function edit(text: string, random: () => number, edits: number): string {
  const lines = text.split("\n").slice(0, -1);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(random() * (lines.length + 1));
    const what = random();
    if (what < 0.35) lines.splice(at, 1, `changed ${i}`);
    else if (what < 0.7) lines.splice(at, 0, ...Array.from({ length: 1 + Math.floor(random() * 4) }, (_, k) => `added ${i}.${k}`));
    else lines.splice(at, 1 + Math.floor(random() * 3));
  }
  return lines.map((l) => `${l}\n`).join("");
}

function randomDiff(seed: number): string {
  const random = rng(seed);
  const base: Record<string, string> = {};
  const head: Record<string, string | null> = {};
  for (let i = 0; i < 3; i++) {
    const name = `src/file ${i}.ts`;
    base[name] = numbered(20 + Math.floor(random() * 80), `f${i} `);
    head[name] = edit(base[name], random, 1 + Math.floor(random() * 8));
  }
  base["lib/moved.ts"] = numbered(60, "m ");
  head["lib/moved now.ts"] = edit(base["lib/moved.ts"], random, 2);
  base["gone.ts"] = numbered(1 + Math.floor(random() * 12), "g ");
  head["gone.ts"] = null;
  head[`new-${seed}.ts`] = numbered(1 + Math.floor(random() * 10), "n ");
  return gitDiff(base, head, { "lib/moved.ts": "lib/moved now.ts" });
}

const richDiff = () =>
  gitDiff(
    {
      "src/a.ts": numbered(40),
      "old name.ts": numbered(40, "const x = "),
      "gone.txt": "x\ny\n",
      "img.bin": Buffer.from([0, 1, 2, 3]),
      "package-lock.json": "{\n}\n",
    },
    {
      "src/a.ts": numbered(40).replace("line 5\n", "line five\n").replace("line 30\n", "").replace("line 12\n", "line 12\nnew 12.5\n"),
      "new name.ts": numbered(40, "const x = ").replace("const x = 20\n", "const y = 20\n"),
      "gone.txt": null,
      "img.bin": Buffer.from([0, 1, 2, 4, 0]),
      "package-lock.json": "{\n  \"lockfileVersion\": 3\n}\n",
      "tab\tname.ts": "no newline",
      "with space/naïve file.ts": "é\n",
    },
    { "old name.ts": "new name.ts" },
  );

const SEVERITIES: Severity[] = ["critical", "warning", "suggestion"];

/** Findings on every line of a file ±2 beyond its hunks, ranges of several lengths, ranges across hunks. */
function findingsFor(file: DiffFile, path: string): Finding[] {
  const last = Math.max(2, ...file.hunks.map((h) => Math.max(h.oldStart + h.oldLines, h.newStart + h.newLines))) + 2;
  const findings: Finding[] = [];
  const add = (line: number, endLine?: number) => {
    if (line < 1) return;
    const severity = SEVERITIES[(line + (endLine ?? 0)) % 3]!;
    const text = `at ${path}:${line}${endLine ? `-${endLine}` : ""}`;
    findings.push(endLine !== undefined && endLine > line ? { path, line, endLine, severity, text } : { path, line, severity, text });
  };
  for (let line = 1; line <= last; line++) {
    add(line);
    for (const k of [1, 3, 10]) add(line, line + k);
  }
  for (const [i, h] of file.hunks.entries()) {
    const next = file.hunks[i + 1];
    add(h.newStart - 1, h.newStart + 1);
    add(h.oldStart - 1, h.oldStart + 1);
    if (next) add(h.newStart, next.newStart + 1);
  }
  return findings;
}

function check(diff: string): void {
  const files = parseDiff(diff);
  const selection = selectFiles(files);
  const targets: [DiffFile, string][] = files.flatMap((f) => [[f, f.path] as [DiffFile, string], ...(f.oldPath ? [[f, f.oldPath] as [DiffFile, string]] : [])]);
  targets.push([files[0]!, "not/in/the diff.ts"]);
  for (const [file, path] of targets) {
    const findings = findingsFor(file, path);
    // Uncapped: every placement is checked. Capped: what crewbot really posts.
    for (const maxComments of [Number.MAX_SAFE_INTEGER, undefined]) {
      const built = buildReview({ findings, summary: "s", notes: [] }, files, selection, maxComments ? { maxComments } : {});
      const problems = githubReviewProblems(diff, built.request, { maxComments: maxComments ?? 25 });
      expect(problems, `${path} (cap ${maxComments ?? 25})`).toEqual([]);
      if (!built.request.body.includes("… truncated")) {
        const seen = postedFingerprints([built.request.body, ...built.request.comments.map((c) => c.body)]);
        expect(seen.size, `every finding on ${path} is somewhere`).toBe(built.counts.critical + built.counts.warning + built.counts.suggestion);
      }
      if (maxComments === undefined) continue;
      // Nothing goes to the body that GitHub would have taken as a single-line comment at its end.
      const side = file.status === "deleted" || path === file.oldPath ? "LEFT" : "RIGHT";
      const inline = new Set(built.request.comments.map((c) => c.body.split(" — ")[1]?.split("\n")[0]));
      for (const finding of findings) {
        const line = finding.endLine ?? finding.line;
        const single = { event: "COMMENT", body: "", comments: [{ path: file.path, line, side, body: "x" }] };
        const accepted = path !== "not/in/the diff.ts" && githubReviewProblems(diff, single).length === 0;
        expect(inline.has(finding.text), `${finding.text} inline`).toBe(accepted);
      }
    }
  }
}

describe("reviews GitHub accepts", () => {
  it("on a real diff with a rename, a deletion, new, binary and oddly named files", () => {
    check(richDiff());
  });

  it.each(Array.from({ length: 8 }, (_, i) => i + 1))("on random real diff #%i", (seed) => {
    check(randomDiff(seed));
  });

  it("on a hand-written diff with adjacent hunks and a one-line file", () => {
    check(
      [
        "diff --git a/a.ts b/a.ts",
        "--- a/a.ts",
        "+++ b/a.ts",
        "@@ -1,3 +1,3 @@",
        "-1", "+one", " 2", " 3",
        "@@ -10,2 +10,3 @@",
        " 10", "+10.5", " 11",
        "diff --git a/b.ts b/b.ts",
        "--- a/b.ts",
        "+++ b/b.ts",
        "@@ -1 +1 @@",
        "-x",
        "\\ No newline at end of file",
        "+y",
        "\\ No newline at end of file",
        "",
      ].join("\n"),
    );
  });
});

describe("the GitHub stand-in refuses what GitHub refuses", () => {
  const diff = richDiff();
  const comment = (c: Partial<{ path: string; line: number; side: string; start_line: number; start_side: string }>) => ({
    event: "COMMENT",
    body: "",
    comments: [{ path: "src/a.ts", line: 5, side: "RIGHT", body: "x", ...c }],
  });
  it.each<[string, ReturnType<typeof comment>, RegExp | null]>([
    ["an added line", comment({}), null],
    ["a deleted line on LEFT", comment({ side: "LEFT" }), null],
    ["a range in one hunk", comment({ start_line: 3, line: 7 }), null],
    ["a line outside the diff", comment({ line: 20 }), /part of the diff/],
    ["an added line on LEFT", comment({ path: "with space/naïve file.ts", line: 1, side: "LEFT" }), /part of the diff/],
    ["a deleted file on RIGHT", comment({ path: "gone.txt", line: 1 }), /part of the diff/],
    ["a deleted file on LEFT", comment({ path: "gone.txt", line: 2, side: "LEFT" }), null],
    ["a renamed file's old path", comment({ path: "old name.ts", line: 20 }), /not in the diff/],
    ["a tab in a quoted path", comment({ path: "tab\tname.ts", line: 1 }), null],
    ["a range across hunks", comment({ start_line: 5, line: 14 }), /same hunk/],
    ["a range backwards", comment({ start_line: 7, line: 5 }), /precede/],
    ["a binary file", comment({ path: "img.bin", line: 1 }), /binary/],
    ["a bad side", comment({ side: "BOTH" }), /LEFT or RIGHT/],
  ])("%s", (_name, review, problem) => {
    const problems = githubReviewProblems(diff, review);
    if (problem === null) expect(problems).toEqual([]);
    else expect(problems.join("\n")).toMatch(problem);
  });

  it("refuses too many comments and oversized bodies", () => {
    const many = { event: "COMMENT", body: "x".repeat(70_000), comments: Array.from({ length: 26 }, () => comment({}).comments[0]!) };
    expect(githubReviewProblems(diff, many).join("\n")).toMatch(/review body is 70000 characters[\s\S]*26 inline comments/);
  });
});
