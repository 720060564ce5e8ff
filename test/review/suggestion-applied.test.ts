import { describe, expect, it } from "vitest";
import { parseDiff } from "../../src/review/diff-lines.js";
import { suggestionApplied, suggestionPrint } from "../../src/review/suggestion-applied.js";

/** The diff of a.js from ten lines `line N` to `after` (a unified diff as git prints it). */
function diffTo(after: string[]) {
  const before = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
  const body: string[] = [];
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    if (before[i] === after[i]) body.push(` ${before[i]}`);
    else {
      if (before[i] !== undefined) body.push(`-${before[i]}`);
      if (after[i] !== undefined) body.push(`+${after[i]}`);
    }
  }
  const text = ["diff --git a/a.js b/a.js", "index 1111111..2222222 100644", "--- a/a.js", "+++ b/a.js", `@@ -1,${before.length} +1,${after.length} @@`, ...body, ""].join("\n");
  return parseDiff(text);
}

const lines = (edit: Record<number, string>) => Array.from({ length: 10 }, (_, i) => edit[i + 1] ?? `line ${i + 1}`);

describe("suggestionApplied", () => {
  it.each([
    ["the suggestion committed as given", lines({ 4: "fixed 4", 5: "fixed 5" }), "fixed 4\nfixed 5\n", true],
    ["the same with other spacing", lines({ 4: "  fixed   4", 5: "fixed 5" }), "fixed 4\nfixed 5", true],
    ["a first line the suggestion kept as it was", lines({ 5: "fixed 5" }), "line 4\nfixed 5", true],
    ["another fix of the lines", lines({ 4: "other 4", 5: "other 5" }), "fixed 4\nfixed 5", false],
    ["the lines left alone (the fix elsewhere)", lines({ 8: "fixed 4" }), "fixed 4", false],
    ["the suggestion's text already there, lines unchanged", lines({}), "line 4\nline 5", false],
  ])("%s: %s", (_name, after, suggestion, applied) => {
    expect(suggestionApplied(diffTo(after), "a.js", 4, 5, suggestionPrint(suggestion))).toBe(applied);
  });

  it("an empty suggestion (delete the lines) is applied when they are all gone", () => {
    const without = lines({}).filter((_, i) => i !== 3 && i !== 4);
    const text = ["diff --git a/a.js b/a.js", "--- a/a.js", "+++ b/a.js", "@@ -1,10 +1,8 @@", ...lines({}).map((l, i) => (i === 3 || i === 4 ? `-${l}` : ` ${l}`)), ""].join("\n");
    expect(without).toHaveLength(8);
    expect(suggestionApplied(parseDiff(text), "a.js", 4, 5, suggestionPrint(""))).toBe(true);
    expect(suggestionApplied(parseDiff(text), "a.js", 4, 6, suggestionPrint(""))).toBe(false);
  });

  it("says nothing for another file or a deleted one", () => {
    expect(suggestionApplied(diffTo(lines({ 4: "fixed 4" })), "b.js", 4, 4, suggestionPrint("fixed 4"))).toBe(false);
    const deleted = parseDiff(["diff --git a/a.js b/a.js", "deleted file mode 100644", "--- a/a.js", "+++ /dev/null", "@@ -1,1 +0,0 @@", "-line 1", ""].join("\n"));
    expect(suggestionApplied(deleted, "a.js", 1, 1, suggestionPrint(""))).toBe(false);
  });
});
