import { describe, expect, it } from "vitest";
import type { DiffFile } from "../../src/review/diff-lines.js";
import { matchesAny, riskClass, selectFiles, skipReason, type SelectOptions } from "../../src/review/select-files.js";

function file(path: string, changed = 10, extra: Partial<DiffFile> = {}): DiffFile {
  return { path, status: "modified", binary: false, additions: changed, deletions: 0, hunks: [], ...extra };
}

describe("skipReason", () => {
  it.each<[string, ReturnType<typeof skipReason>]>([
    ["package-lock.json", "lockfile"],
    ["web/yarn.lock", "lockfile"],
    ["pnpm-lock.yaml", "lockfile"],
    ["Cargo.lock", "lockfile"],
    ["poetry.lock", "lockfile"],
    ["Gemfile.lock", "lockfile"],
    ["composer.lock", "lockfile"],
    ["go.sum", "lockfile"],
    ["go.mod", null],
    ["public/app.min.js", "generated"],
    ["styles/site.min.css", "generated"],
    ["dist/index.js", "generated"],
    ["packages/ui/build/out.js", "generated"],
    ["src/schema.generated.ts", "generated"],
    ["api/v1/user.pb.go", "generated"],
    ["api/user_pb2.py", "generated"],
    ["src/__snapshots__/a.test.ts.snap", "generated"],
    ["vendor/github.com/x/y.go", "vendored"],
    ["node_modules/left-pad/index.js", "vendored"],
    ["third_party/zlib/zlib.c", "vendored"],
    ["vendor/x/go.sum", "vendored"],
    ["src/builder.ts", null],
    ["src/distance.ts", null],
    ["src/vendors.ts", null],
    ["src/minimal.js", null],
  ])("%s → %s", (path, reason) => {
    expect(skipReason(path)).toBe(reason);
  });
});

describe("riskClass", () => {
  it.each<[string, 0 | 1 | 2]>([
    ["src/a.ts", 0],
    ["main.go", 0],
    ["bin/crewbot", 0],
    ["Makefile", 0],
    [".github/workflows/ci.yml", 0],
    ["test/a.test.ts", 1],
    ["src/a.spec.ts", 1],
    ["pkg/a_test.go", 1],
    ["tests/test_a.py", 1],
    ["src/__tests__/a.tsx", 1],
    ["README.md", 2],
    ["docs/guide.html", 2],
    ["package.json", 2],
    ["config/app.yaml", 2],
    [".gitignore", 2],
    ["LICENSE", 2],
    [".github/CODEOWNERS", 2],
  ])("%s → %i", (path, risk) => {
    expect(riskClass(path)).toBe(risk);
  });
});

describe("matchesAny (review.paths globs)", () => {
  it.each<[string, string, boolean]>([
    ["**", "a/b/c.ts", true],
    ["src/**", "src/a/b.ts", true],
    ["src/**", "lib/a.ts", false],
    ["src/**/*.ts", "src/a.ts", true],
    ["src/**/*.ts", "src/a/b/c.ts", true],
    ["src/**/*.ts", "src/a/b/c.js", false],
    ["src/*.ts", "src/a/b.ts", false],
    ["*.md", "docs/a.md", true],
    ["*.md", "a.md", true],
    ["docs/*.md", "docs/a.md", true],
    ["docs/*.md", "x/docs/a.md", false],
    ["a?.ts", "ab.ts", true],
    ["a?.ts", "a/.ts", false],
    ["**/legacy/**", "x/legacy/y/z.ts", true],
    ["**/legacy/**", "legacy/z.ts", true],
    ["file.\\(1\\).ts", "file.(1).ts", true], // glob syntax: parentheses are escaped to be literal
    ["file.\\(1\\).ts", "fileX(1).ts", false],
    [".github/**", ".github/workflows/ci.yml", true], // dot files count
    ["./src/**", "src/a.ts", true],
  ])("%s ~ %s → %s", (glob, path, ok) => {
    expect(matchesAny(path, [glob])).toBe(ok);
  });
});

const names = (list: { path: string }[]) => list.map((f) => f.path);

describe("selectFiles", () => {
  it.each<[string, DiffFile[], SelectOptions, string[], [string, string][]]>([
    [
      "leaves out lockfiles, generated, vendored, binary and deleted files",
      [file("src/a.ts"), file("package-lock.json", 900), file("dist/a.js"), file("vendor/x.go"),
        file("logo.png", 0, { binary: true }), file("src/old.ts", 5, { status: "deleted", additions: 0, deletions: 5 })],
      {},
      ["src/a.ts"],
      [["package-lock.json", "lockfile"], ["dist/a.js", "generated"], ["vendor/x.go", "vendored"], ["logo.png", "binary"], ["src/old.ts", "deleted"]],
    ],
    [
      "source before tests before docs, bigger first, then by path",
      [file("README.md", 50), file("test/a.test.ts", 40), file("src/b.ts", 5), file("src/a.ts", 5), file("src/c.ts", 30)],
      {},
      ["src/c.ts", "src/a.ts", "src/b.ts", "test/a.test.ts", "README.md"],
      [],
    ],
    [
      "stops at the changed-lines budget; a smaller file after a big one may still fit",
      [file("src/a.ts", 60), file("src/b.ts", 50), file("src/c.ts", 30), file("test/t.test.ts", 10)],
      { budget: { maxChangedLines: 100 } },
      ["src/a.ts", "src/c.ts", "test/t.test.ts"],
      [["src/b.ts", "over the review budget"]],
    ],
    [
      "stops at the file budget",
      [file("src/a.ts"), file("src/b.ts"), file("src/c.ts")],
      { budget: { maxFiles: 2 } },
      ["src/a.ts", "src/b.ts"],
      [["src/c.ts", "over the review budget"]],
    ],
    [
      "a file bigger than the whole budget is not reviewed",
      [file("src/huge.ts", 5000)],
      { budget: { maxChangedLines: 1000 } },
      [],
      [["src/huge.ts", "over the review budget"]],
    ],
    [
      "review.paths exclude wins over the other reasons",
      [file("src/a.ts"), file("legacy/b.ts"), file("legacy/yarn.lock")],
      { paths: { exclude: ["legacy/**"] } },
      ["src/a.ts"],
      [["legacy/b.ts", "excluded by review.paths"], ["legacy/yarn.lock", "excluded by review.paths"]],
    ],
    [
      "review.paths include narrows",
      [file("src/a.ts"), file("scripts/b.sh"), file("src/c.md")],
      { paths: { include: ["src/**"], exclude: ["*.md"] } },
      ["src/a.ts"],
      [["scripts/b.sh", "excluded by review.paths"], ["src/c.md", "excluded by review.paths"]],
    ],
    [
      "a renamed file is judged by its new path",
      [file("src/a.ts", 2, { status: "renamed", oldPath: "vendor/a.ts" })],
      {},
      ["src/a.ts"],
      [],
    ],
  ])("%s", (_name, files, options, reviewed, notReviewed) => {
    const selection = selectFiles(files, options);
    expect(names(selection.reviewed)).toEqual(reviewed);
    expect(selection.notReviewed.map((n) => [n.path, n.reason])).toEqual(notReviewed);
  });

  it("puts every file in exactly one list", () => {
    const paths = ["src/a.ts", "yarn.lock", "dist/x.js", "docs/a.md", "test/x.test.ts", "img.png", "src/big.ts", "gone.ts"];
    const files = paths.map((p, i) =>
      file(p, i * 40, { binary: p.endsWith(".png"), status: p === "gone.ts" ? "deleted" : "modified" }),
    );
    const { reviewed, notReviewed } = selectFiles(files, { budget: { maxChangedLines: 150, maxFiles: 3 } });
    expect([...names(reviewed), ...names(notReviewed)].sort()).toEqual([...paths].sort());
  });
});
