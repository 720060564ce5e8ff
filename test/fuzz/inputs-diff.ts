/**
 * `git diff` output as the review reads it: files with hostile names and contents, hunks with
 * numbers at the edges and counts that lie, many identical lines, truncated and spliced texts.
 */
import fc from "fast-check";
import { anyText, edgeNumber, hostileText, lengthNear } from "./hostile.js";

interface Line {
  op: "+" | "-" | " " | "\\";
  text: string;
}

const name = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("src/a.ts", "package-lock.json", "a b/c d.ts", "dir/", ".github/crewbot.yml", "-rf", "é/ü.ts", "x\ty", "\"q\"", "dev/null") },
  { weight: 2, arbitrary: anyText(30).map((s) => s.replace(/\n/g, "")) },
);

/** A line's text: ordinary code, hostile text, or git's own syntax inside a file. */
const lineText = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("", "}", "  return x;", "diff --git a/x b/x", "@@ -1 +1 @@", "--- a/x", "+++ b/x", "\\ No newline at end of file", "GIT binary patch", "\r") },
  { weight: 2, arbitrary: hostileText({ max: 2_000 }) },
);

const line: fc.Arbitrary<Line> = fc.record({ op: fc.constantFrom<Line["op"]>("+", "-", " ", " ", "\\"), text: lineText });

/** A hunk: a few lines, or one line repeated many times (a deleted block of `}`, a generated file). */
const hunkLines = fc.oneof(
  { weight: 3, arbitrary: fc.array(line, { minLength: 1, maxLength: 40 }) },
  {
    weight: 1,
    // Short lines, so a diff stays a few MB: its parse is linear; a repeated line is what matching across diffs meets.
    arbitrary: fc.record({ one: line, times: lengthNear(20_000, [10_000]) }).map(({ one, times }) => Array.from({ length: Math.max(1, times) }, () => ({ op: one.op === "\\" ? "-" : one.op, text: one.text.slice(0, 80) }))),
  },
);

const hunk = fc.record({ oldStart: fc.oneof(fc.nat(2_000), edgeNumber().map((n) => Math.abs(Math.trunc(n)))), newStart: fc.nat(2_000), lines: hunkLines, lie: fc.boolean() });

type Hunk = { oldStart: number; newStart: number; lines: Line[]; lie: boolean };

function renderHunk(h: Hunk, crlf: boolean): string {
  const old = h.lines.filter((l) => l.op === " " || l.op === "-").length + (h.lie ? 1 : 0);
  const now = h.lines.filter((l) => l.op === " " || l.op === "+").length;
  const body = h.lines.map((l) => (l.op === "\\" ? "\\ No newline at end of file" : `${l.op}${l.text.replace(/\n/g, " ")}${crlf ? "\r" : ""}`));
  return [`@@ -${h.oldStart},${old} +${h.newStart},${now} @@`, ...body].join("\n");
}

const fileDiff = fc
  .record({ from: name, to: name, kind: fc.constantFrom("modified", "added", "deleted", "renamed", "binary", "mode"), hunks: fc.array(hunk, { maxLength: 4 }), crlf: fc.boolean() })
  .map(({ from, to, kind, hunks, crlf }) => {
    const head = [`diff --git a/${from} b/${kind === "renamed" ? to : from}`];
    if (kind === "added") head.push("new file mode 100644");
    if (kind === "deleted") head.push("deleted file mode 100644");
    if (kind === "renamed") head.push("similarity index 90%", `rename from ${from}`, `rename to ${to}`);
    if (kind === "mode") head.push("old mode 100644", "new mode 100755");
    if (kind === "binary") return [...head, "index 0000000..1111111", `Binary files a/${from} and b/${from} differ`].join("\n");
    head.push(`--- ${kind === "added" ? "/dev/null" : `a/${from}`}`, `+++ ${kind === "deleted" ? "/dev/null" : `b/${kind === "renamed" ? to : from}`}`);
    return [...head, ...hunks.map((h) => renderHunk(h, crlf))].join("\n");
  });

/** A whole diff, sometimes cut short, spliced with junk, or nothing like a diff at all. */
export const diffText = fc.oneof(
  { weight: 5, arbitrary: fc.array(fileDiff, { minLength: 1, maxLength: 6 }).map((files) => `${files.join("\n")}\n`) },
  {
    weight: 2,
    arbitrary: fc.record({ files: fc.array(fileDiff, { minLength: 1, maxLength: 3 }), cut: fc.nat(), junk: hostileText({ max: 5_000, tokens: ["diff --git ", "@@ ", "\n+", "\n-", "\n "] }) }).map(({ files, cut, junk }) => {
      const whole = files.join("\n");
      const at = cut % (whole.length + 1);
      return `${whole.slice(0, at)}${junk}${whole.slice(at)}`;
    }),
  },
  { weight: 1, arbitrary: hostileText({ max: 20_000, tokens: ["diff --git a/x b/x\n", "--- a/x\n", "+++ b/x\n", "@@ -1,2 +1,2 @@\n", "\n+", "\n-"] }) },
);

/** A file whose change is one line deleted (or added) many times over: a generated file removed. */
const oneLineManyTimes = fc.record({ op: fc.constantFrom("-", "+"), text: fc.constantFrom("}", "", "  return x;"), times: lengthNear(20_000, [10_000]) }).map(({ op, text, times }) => {
  const n = Math.max(1, times);
  const header = op === "-" ? `@@ -1,${n} +0,0 @@` : `@@ -0,0 +1,${n} @@`;
  return `diff --git a/gen.js b/gen.js\n--- a/gen.js\n+++ b/gen.js\n${header}\n${`${op}${text}\n`.repeat(n)}`;
});

/** `last..head` and the PR's `merge-base..head`: the same diff, or two. */
export const diffPair = fc
  .record({ since: fc.oneof({ weight: 3, arbitrary: diffText }, { weight: 1, arbitrary: oneLineManyTimes }), pullRequest: diffText, same: fc.boolean() })
  .map(({ since, pullRequest, same }) => ({ since, pullRequest: same ? since : pullRequest }));
