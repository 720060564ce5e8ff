import { describe, expect, it } from "vitest";
import {
  commentablePositions,
  DiffParseError,
  hunkOf,
  lineText,
  parseDiff,
  positionKey,
  type DiffFile,
} from "../../src/review/diff-lines.js";
import { gitDiff, numbered } from "./git-fixture.js";

const summary = (f: DiffFile) => ({
  path: f.path,
  oldPath: f.oldPath,
  status: f.status,
  binary: f.binary,
  additions: f.additions,
  deletions: f.deletions,
  hunks: f.hunks.length,
});

const modified = [
  "diff --git a/src/a.ts b/src/a.ts",
  "index e8823e1..cee7009 100644",
  "--- a/src/a.ts",
  "+++ b/src/a.ts",
  "@@ -2,7 +2,7 @@ export function a() {",
  " 2",
  " 3",
  " 4",
  "-5",
  "+five",
  " 6",
  " 7",
  " 8",
  "@@ -22,6 +22,7 @@",
  " 22",
  " 23",
  " 24",
  "+24.5",
  " 25",
  " 26",
  " 27",
  "",
].join("\n");

describe("parseDiff files", () => {
  it.each<[string, string, ReturnType<typeof summary>[]]>([
    ["a modified file with two hunks", modified,
      [{ path: "src/a.ts", oldPath: undefined, status: "modified", binary: false, additions: 2, deletions: 1, hunks: 2 }]],
    ["a new file",
      "diff --git a/n.ts b/n.ts\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ b/n.ts\n@@ -0,0 +1,2 @@\n+a\n+b\n",
      [{ path: "n.ts", oldPath: undefined, status: "added", binary: false, additions: 2, deletions: 0, hunks: 1 }]],
    ["an empty new file (no hunks)",
      "diff --git a/empty.txt b/empty.txt\nnew file mode 100644\nindex 0000000..e69de29\n",
      [{ path: "empty.txt", oldPath: undefined, status: "added", binary: false, additions: 0, deletions: 0, hunks: 0 }]],
    ["a deleted file keeps the path it had",
      "diff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\nindex b77b4eb..0000000\n--- a/gone.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n-y\n",
      [{ path: "gone.txt", oldPath: undefined, status: "deleted", binary: false, additions: 0, deletions: 2, hunks: 1 }]],
    ["a pure rename",
      "diff --git a/old.ts b/lib/new.ts\nsimilarity index 100%\nrename from old.ts\nrename to lib/new.ts\n",
      [{ path: "lib/new.ts", oldPath: "old.ts", status: "renamed", binary: false, additions: 0, deletions: 0, hunks: 0 }]],
    ["a rename with changes",
      "diff --git a/old.ts b/new.ts\nsimilarity index 97%\nrename from old.ts\nrename to new.ts\nindex 26e04c7..0e301ea 100644\n--- a/old.ts\n+++ b/new.ts\n@@ -18,3 +18,3 @@\n 117\n-120\n+X\n 121\n",
      [{ path: "new.ts", oldPath: "old.ts", status: "renamed", binary: false, additions: 1, deletions: 1, hunks: 1 }]],
    ["a binary change",
      "diff --git a/img.png b/img.png\nindex 88768ef..3e3315e 100644\nBinary files a/img.png and b/img.png differ\n",
      [{ path: "img.png", oldPath: undefined, status: "modified", binary: true, additions: 0, deletions: 0, hunks: 0 }]],
    ["a new binary file",
      "diff --git a/img.png b/img.png\nnew file mode 100644\nindex 0000000..3e3315e\nBinary files /dev/null and b/img.png differ\n",
      [{ path: "img.png", oldPath: undefined, status: "added", binary: true, additions: 0, deletions: 0, hunks: 0 }]],
    ["a --binary patch body",
      "diff --git a/img.png b/img.png\nindex 88768ef..3e3315e 100644\nGIT binary patch\nliteral 3\nKcmZ?wWB>pF01f~E\n\nliteral 3\nKcmZ?wWB>pF01f~E\n\n",
      [{ path: "img.png", oldPath: undefined, status: "modified", binary: true, additions: 0, deletions: 0, hunks: 0 }]],
    ["a mode change only",
      "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n",
      [{ path: "run.sh", oldPath: undefined, status: "modified", binary: false, additions: 0, deletions: 0, hunks: 0 }]],
    ["a path with spaces (git adds a tab after the name)",
      "diff --git a/my file.txt b/my file.txt\nindex 0ff3bbb..d4de868 100644\n--- a/my file.txt\t\n+++ b/my file.txt\t\n@@ -1 +1,2 @@\n 1\n+2\n",
      [{ path: "my file.txt", oldPath: undefined, status: "modified", binary: false, additions: 1, deletions: 0, hunks: 1 }]],
    ["a path with ' b/' in it",
      "diff --git a/x b/y.txt b/x b/y.txt\ndeleted file mode 100644\nindex e69de29..0000000\n",
      [{ path: "x b/y.txt", oldPath: undefined, status: "deleted", binary: false, additions: 0, deletions: 0, hunks: 0 }]],
    ["quoted paths (tab, non-ASCII)",
      'diff --git "a/tab\\tname.ts" "b/tab\\tname.ts"\nnew file mode 100644\n--- /dev/null\n+++ "b/tab\\tname.ts"\n@@ -0,0 +1 @@\n+x\n' +
      'diff --git "a/na\\303\\257ve.ts" "b/na\\303\\257ve.ts"\nindex 1..2 100644\n--- "a/na\\303\\257ve.ts"\n+++ "b/na\\303\\257ve.ts"\n@@ -1 +1 @@\n-a\n+b\n',
      [{ path: "tab\tname.ts", oldPath: undefined, status: "added", binary: false, additions: 1, deletions: 0, hunks: 1 },
        { path: "naïve.ts", oldPath: undefined, status: "modified", binary: false, additions: 1, deletions: 1, hunks: 1 }]],
    ["a deleted line that looks like a file header", "diff --git a/a.md b/a.md\n--- a/a.md\n+++ b/a.md\n@@ -1,2 +1,2 @@\n--- old rule\n+++ new rule\n ok\n",
      [{ path: "a.md", oldPath: undefined, status: "modified", binary: false, additions: 1, deletions: 1, hunks: 1 }]],
    ["nothing", "", []],
  ])("%s", (_name, diff, expected) => {
    expect(parseDiff(diff).map(summary)).toEqual(expected);
  });

  it("numbers lines on both sides", () => {
    const [file] = parseDiff(modified);
    expect(file!.hunks[0]!.lines.slice(2, 6)).toEqual([
      { kind: "context", oldLine: 4, newLine: 4, text: "4" },
      { kind: "del", oldLine: 5, text: "5" },
      { kind: "add", newLine: 5, text: "five" },
      { kind: "context", oldLine: 6, newLine: 6, text: "6" },
    ]);
    expect(file!.hunks[1]).toMatchObject({ oldStart: 22, oldLines: 6, newStart: 22, newLines: 7 });
    expect(file!.hunks[1]!.lines[3]).toEqual({ kind: "add", newLine: 25, text: "24.5" });
  });

  it("marks a line followed by '\\ No newline at end of file', and drops a CR (remembering it)", () => {
    const [file] = parseDiff("diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1 +1 @@\n-x\r\n\\ No newline at end of file\n+y\n");
    expect(file!.hunks[0]!.lines).toEqual([
      { kind: "del", oldLine: 1, text: "x", noNewline: true, crlf: true },
      { kind: "add", newLine: 1, text: "y" },
    ]);
  });

  it.each([
    ["text before the first header", "hello\ndiff --git a/a b/a\n"],
    ["a hunk with too few lines", "diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1,3 +1,3 @@\n x\n"],
  ])("refuses %s", (_name, diff) => {
    expect(() => parseDiff(diff)).toThrow(DiffParseError);
  });
});

describe("commentable positions", () => {
  const files = parseDiff(modified);
  const positions = commentablePositions(files);
  it.each<[string, "LEFT" | "RIGHT", number, boolean]>([
    ["context line, new numbering", "RIGHT", 2, true],
    ["added line", "RIGHT", 5, true],
    ["last context line of hunk 1", "RIGHT", 8, true],
    ["just after hunk 1", "RIGHT", 9, false],
    ["between hunks", "RIGHT", 15, false],
    ["just before hunk 2", "RIGHT", 21, false],
    ["line added in hunk 2", "RIGHT", 25, true],
    ["last line of hunk 2 (new numbering)", "RIGHT", 28, true],
    ["past hunk 2 on RIGHT", "RIGHT", 29, false],
    ["deleted line, old numbering", "LEFT", 5, true],
    ["context line on LEFT", "LEFT", 4, true],
    ["last line of hunk 2 (old numbering)", "LEFT", 27, true],
    ["past hunk 2 on LEFT", "LEFT", 28, false],
    ["line 0", "RIGHT", 0, false],
  ])("%s: %s %i → %s", (_name, side, line, ok) => {
    expect(positions.has(positionKey("src/a.ts", side, line))).toBe(ok);
  });

  it("gives nothing on another path", () => {
    expect(positions.has(positionKey("src/b.ts", "RIGHT", 5))).toBe(false);
  });

  it.each<["LEFT" | "RIGHT", number, number | undefined]>([
    ["RIGHT", 2, 0], ["RIGHT", 8, 0], ["RIGHT", 9, undefined], ["RIGHT", 22, 1], ["RIGHT", 28, 1],
    ["LEFT", 5, 0], ["LEFT", 27, 1], ["LEFT", 28, undefined],
  ])("hunkOf %s %i → %s", (side, line, hunk) => {
    expect(hunkOf(files[0]!, side, line)).toBe(hunk);
  });

  it("lineText reads either side", () => {
    expect(lineText(files[0]!, "RIGHT", 5)).toBe("five");
    expect(lineText(files[0]!, "LEFT", 5)).toBe("5");
    expect(lineText(files[0]!, "RIGHT", 15)).toBeUndefined();
  });
});

describe("parseDiff on real git output", () => {
  it("reads a rename, a deletion, a new file, a binary file and names with a space, tab or accent", () => {
    const diff = gitDiff(
      {
        "src/a.ts": numbered(30),
        "old name.ts": numbered(40, "const x = "),
        "gone.txt": "x\ny\n",
        "img.bin": Buffer.from([0, 1, 2, 3]),
        "docs/read me.md": "# hi\n",
      },
      {
        "src/a.ts": numbered(30).replace("line 5\n", "line five\n").replace("line 25\n", "line 25\nline 25.5\n"),
        "new name.ts": numbered(40, "const x = ").replace("const x = 20\n", "const y = 20\n"),
        "gone.txt": null,
        "img.bin": Buffer.from([0, 1, 2, 4, 0]),
        "docs/read me.md": "# hello\n",
        "tab\tname.ts": "no newline",
        "naïve.ts": "é\n",
      },
      { "old name.ts": "new name.ts" },
    );
    const files = parseDiff(diff);
    expect(files.map(summary)).toEqual([
      { path: "docs/read me.md", oldPath: undefined, status: "modified", binary: false, additions: 1, deletions: 1, hunks: 1 },
      { path: "gone.txt", oldPath: undefined, status: "deleted", binary: false, additions: 0, deletions: 2, hunks: 1 },
      { path: "img.bin", oldPath: undefined, status: "modified", binary: true, additions: 0, deletions: 0, hunks: 0 },
      { path: "naïve.ts", oldPath: undefined, status: "added", binary: false, additions: 1, deletions: 0, hunks: 1 },
      { path: "new name.ts", oldPath: "old name.ts", status: "renamed", binary: false, additions: 1, deletions: 1, hunks: 1 },
      { path: "src/a.ts", oldPath: undefined, status: "modified", binary: false, additions: 2, deletions: 1, hunks: 2 },
      { path: "tab\tname.ts", oldPath: undefined, status: "added", binary: false, additions: 1, deletions: 0, hunks: 1 },
    ]);
    const tab = files.find((f) => f.path === "tab\tname.ts")!;
    expect(tab.hunks[0]!.lines).toEqual([{ kind: "add", newLine: 1, text: "no newline", noNewline: true }]);
    const positions = commentablePositions(files);
    expect(positions.has(positionKey("new name.ts", "RIGHT", 20))).toBe(true);
    expect(positions.has(positionKey("new name.ts", "LEFT", 20))).toBe(true);
    expect(positions.has(positionKey("gone.txt", "LEFT", 2))).toBe(true);
    expect(positions.has(positionKey("gone.txt", "RIGHT", 1))).toBe(false);
    expect([...positions].some((k) => k.endsWith(":img.bin"))).toBe(false);
  });
});
