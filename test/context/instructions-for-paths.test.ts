import { describe, expect, it } from "vitest";
import { instructionsForPaths, MAX_MATCHED_PATHS, type InstructionFile, type InstructionRequest } from "../../src/context/instructions-for-paths.js";

const file = (path: string, text = `rules of ${path}`): InstructionFile => ({ path, text });
const scoped = (path: string, frontmatter: string, body = `rules of ${path}`): InstructionFile => ({ path, text: `---\n${frontmatter}\n---\n${body}\n` });
const sources = (files: InstructionFile[], request: InstructionRequest) => instructionsForPaths(files, request).sections.map((s) => s.source);

const TREE = [
  file("AGENTS.md"),
  file("CLAUDE.md"),
  file(".github/copilot-instructions.md"),
  file("src/AGENTS.md"),
  file("src/db/AGENTS.md"),
  file("src/db/CLAUDE.md"),
  file("docs/CLAUDE.md"),
  file("packages/api/AGENTS.md"),
];
const ROOT = ["AGENTS.md", "CLAUDE.md", ".github/copilot-instructions.md"];

describe("nested AGENTS.md / CLAUDE.md: the nearest folder above each file", () => {
  it.each<[string, string[]]>([
    ["README.md", []],
    ["src/a.ts", ["src/AGENTS.md, nearest to src/a.ts"]],
    ["src/db/pool.ts", ["src/db/AGENTS.md, nearest to src/db/pool.ts", "src/db/CLAUDE.md, nearest to src/db/pool.ts"]],
    ["src/db/migrations/001.sql", ["src/db/AGENTS.md, nearest to src/db/migrations/001.sql", "src/db/CLAUDE.md, nearest to src/db/migrations/001.sql"]],
    ["src/dbx/a.ts", ["src/AGENTS.md, nearest to src/dbx/a.ts"]],
    ["docs/guide/intro.md", ["docs/CLAUDE.md, nearest to docs/guide/intro.md"]],
    ["packages/web/a.ts", []],
    ["packages/api/AGENTS.md", ["packages/api/AGENTS.md, nearest to packages/api/AGENTS.md"]],
  ])("%s → the root's, then %j", (path, nested) => {
    expect(sources(TREE, { paths: [path], review: false })).toEqual([...ROOT, ...nested]);
  });

  it("one section per file, naming every file it applies to (a few, then a count)", () => {
    const paths = ["src/a.ts", "src/b.ts", "src/db/x.ts", ...Array.from({ length: 6 }, (_, i) => `src/c${i}.ts`)];
    expect(sources(TREE, { paths, review: false, origin: "default branch" })).toEqual([
      "AGENTS.md (default branch)",
      "CLAUDE.md (default branch)",
      ".github/copilot-instructions.md (default branch)",
      "src/AGENTS.md (default branch), nearest to src/a.ts, src/b.ts, src/c0.ts, src/c1.ts, src/c2.ts and 3 more",
      "src/db/AGENTS.md (default branch), nearest to src/db/x.ts",
      "src/db/CLAUDE.md (default branch), nearest to src/db/x.ts",
    ]);
  });

  it("gives each file's text as it is, and says in `applied` what was given", () => {
    const chosen = instructionsForPaths([file("AGENTS.md", "Be brief."), file("src/AGENTS.md", "Tabs.")], { paths: ["src/a.ts"], review: false });
    expect(chosen.sections).toEqual([
      { source: "AGENTS.md", text: "Be brief." },
      { source: "src/AGENTS.md, nearest to src/a.ts", text: "Tabs." },
    ]);
    expect(chosen.applied).toEqual(["AGENTS.md", "src/AGENTS.md, nearest to src/a.ts"]);
    expect(chosen.problems).toEqual([]);
  });

  it("ignores files that are no instruction files", () => {
    expect(sources([file("README.md"), file("src/agents.md"), file(".github/instructions/x.md"), file("AGENTS.md")], { paths: ["src/a.ts"], review: false })).toEqual(["AGENTS.md"]);
  });
});

describe(".github/instructions/*.instructions.md: applyTo", () => {
  it.each<[string, string, string, boolean]>([
    ["one glob", 'applyTo: "src/**/*.py"', "src/a/b.py", true],
    ["one glob, another folder", 'applyTo: "src/**/*.py"', "lib/b.py", false],
    ["comma-separated", 'applyTo: "**/*.ts,**/*.tsx"', "web/App.tsx", true],
    ["comma-separated with spaces", "applyTo: '**/*.ts, **/*.tsx'", "web/App.tsx", true],
    ["a YAML list", "applyTo:\n  - docs/**\n  - '*.md'", "docs/a/b.txt", true],
    ["** is every file", 'applyTo: "**"', ".github/workflows/ci.yml", true],
    ["**/* is every file", 'applyTo: "**/*"', "a.ts", true],
    ["* is the root's files only", 'applyTo: "*"', "src/a.ts", false],
    ["* matches a root file", 'applyTo: "*"', "Makefile", true],
    ["*.py is the root's only", 'applyTo: "*.py"', "src/a.py", false],
    ["src/*.py is one folder", 'applyTo: "src/*.py"', "src/foo/bar.py", false],
    ["**/subdir/** at any depth", 'applyTo: "**/subdir/**/*.py"', "deep/subdir/nested/q.py", true],
    ["**/subdir/** at the root", 'applyTo: "**/subdir/**/*.py"', "subdir/foo.py", true],
    ["a leading ./", 'applyTo: "./src/**"', "src/a.ts", true],
    ["no applyTo", "description: no scope", "src/a.ts", false],
  ])("%s (%s) on %s → %s", (_name, frontmatter, path, applies) => {
    const got = sources([scoped(".github/instructions/x.instructions.md", frontmatter)], { paths: [path], review: false });
    expect(got.length).toBe(applies ? 1 : 0);
    if (applies) expect(got[0]).toMatch(/^\.github\/instructions\/x\.instructions\.md, applyTo .+: /);
  });

  it("gives the body without the frontmatter, and finds files in subfolders", () => {
    const chosen = instructionsForPaths([scoped(".github/instructions/db/sql.instructions.md", 'applyTo: "**/*.sql"', "Name every index.")], { paths: ["db/1.sql"], review: true });
    expect(chosen.sections).toEqual([{ source: ".github/instructions/db/sql.instructions.md, applyTo **/*.sql: db/1.sql", text: "Name every index.\n" }]);
  });

  it.each<[string, boolean, boolean]>([
    ['excludeAgent: "code-review"', true, false],
    ['excludeAgent: "code-review"', false, true],
    ['excludeAgent: "coding-agent"', true, true],
    ['excludeAgent: "coding-agent"', false, false],
  ])("%s, review %s → given %s", (exclude, review, given) => {
    const chosen = instructionsForPaths([scoped(".github/instructions/x.instructions.md", `applyTo: "**"\n${exclude}`)], { paths: ["a.ts"], review });
    expect(chosen.sections.length).toBe(given ? 1 : 0);
    if (!given) expect(chosen.applied).toEqual([`not applied: .github/instructions/x.instructions.md (${exclude.replace(/"/g, "")})`]);
  });

  it("a file without applyTo or with broken frontmatter is not applied, and says why", () => {
    const chosen = instructionsForPaths(
      [
        scoped(".github/instructions/none.instructions.md", "description: x"),
        scoped(".github/instructions/broken.instructions.md", "applyTo: [unclosed"),
        scoped(".github/instructions/number.instructions.md", "applyTo: 3"),
        { path: ".github/instructions/js.instructions.md", text: "---js\n{ applyTo: '**' }\n---\nx\n" },
      ],
      { paths: ["a.ts"], review: false },
    );
    expect(chosen.sections).toEqual([]);
    expect(chosen.problems).toEqual([
      expect.stringMatching(/^\.github\/instructions\/broken\.instructions\.md: not applied \(frontmatter: invalid YAML at line 2: /),
      expect.stringMatching(/^\.github\/instructions\/js\.instructions\.md: not applied \(frontmatter: only YAML frontmatter is supported/),
      ".github/instructions/number.instructions.md: not applied (applyTo: expected a string or a list of strings)",
    ]);
    expect(chosen.applied).toContain("not applied: .github/instructions/none.instructions.md (no applyTo)");
  });
});

describe("review.instructions", () => {
  const configured = [
    { paths: ["src/db/**"], text: "Every query goes through the pool." },
    { paths: ["*.sql"], text: "Migrations are forward-only." },
    { paths: ["docs/**"], text: "Docs in British English." },
  ];

  it.each<[string, boolean, string[], string[]]>([
    ["a review of a db file", true, ["src/db/pool.ts"], ["review.instructions[0] of .github/crewbot.yml, for src/db/**: src/db/pool.ts"]],
    ["a pattern without / matches at any depth (as review.paths)", true, ["src/db/migrations/1.sql"], [
      "review.instructions[0] of .github/crewbot.yml, for src/db/**: src/db/migrations/1.sql",
      "review.instructions[1] of .github/crewbot.yml, for *.sql: src/db/migrations/1.sql",
    ]],
    ["no match", true, ["src/app.ts"], []],
    ["not a review", false, ["src/db/pool.ts"], []],
    ["a review with no files known: every entry, with its globs", true, [], []],
  ])("%s", (_name, review, paths, expected) => {
    expect(sources([], { paths, review, configured })).toEqual(expected);
  });

  it("with no paths known, a review gets every entry with the globs it covers", () => {
    const chosen = instructionsForPaths([], { review: true, configured });
    expect(chosen.sections[0]).toEqual({ source: "review.instructions[0] of .github/crewbot.yml, for the files matching src/db/**", text: "Every query goes through the pool." });
    expect(chosen.sections).toHaveLength(3);
  });
});

describe("no files known upfront (an issue's /plan or /implement)", () => {
  const request: InstructionRequest = { review: false };

  it("gives the root's and every nested file, each with what it covers, when they fit", () => {
    expect(sources([...TREE, scoped(".github/instructions/ts.instructions.md", 'applyTo: "**/*.ts"')], request)).toEqual([
      ...ROOT,
      "docs/CLAUDE.md, for the files under docs/ (where no nearer AGENTS.md or CLAUDE.md is)",
      "src/AGENTS.md, for the files under src/ (where no nearer AGENTS.md or CLAUDE.md is)",
      "packages/api/AGENTS.md, for the files under packages/api/ (where no nearer AGENTS.md or CLAUDE.md is)",
      "src/db/AGENTS.md, for the files under src/db/ (where no nearer AGENTS.md or CLAUDE.md is)",
      "src/db/CLAUDE.md, for the files under src/db/ (where no nearer AGENTS.md or CLAUDE.md is)",
      ".github/instructions/ts.instructions.md, for the files matching **/*.ts",
    ]);
  });

  it("lists them instead, with what each covers, when together they are over the cap", () => {
    const big = (path: string) => file(path, "x".repeat(3000));
    const chosen = instructionsForPaths([file("AGENTS.md", "root"), big("src/AGENTS.md"), big("lib/CLAUDE.md"), scoped(".github/instructions/ts.instructions.md", 'applyTo: "**/*.ts"', "y".repeat(3000))], request, { fileChars: 4000, totalChars: 8000 });
    expect(chosen.sections.map((s) => s.source)).toEqual(["AGENTS.md", "instructions for parts of the repository"]);
    expect(chosen.sections[1]!.text).toBe([
      "These instruction files cover parts of the repository. Together they are 9 KB, over the 8 KB cap, so they are not included here.",
      "They are files of the checkout: before you change or judge a file, read the nearest AGENTS.md or CLAUDE.md above it and the .instructions.md files whose globs match it.",
      "- lib/CLAUDE.md: the files under lib/ (where no nearer AGENTS.md or CLAUDE.md is)",
      "- src/AGENTS.md: the files under src/ (where no nearer AGENTS.md or CLAUDE.md is)",
      "- .github/instructions/ts.instructions.md: the files matching **/*.ts",
    ].join("\n"));
    expect(chosen.applied).toEqual([
      "AGENTS.md",
      "instructions for parts of the repository",
      "listed, not included (3 files, 9 KB together, over the 8 KB cap): lib/CLAUDE.md, src/AGENTS.md, .github/instructions/ts.instructions.md",
    ]);
  });
});

describe("caps", () => {
  const caps = { fileChars: 2000, totalChars: 5000 };

  it("cuts one file at the per-file cap, with a note naming it", () => {
    const [section] = instructionsForPaths([file("AGENTS.md", "a".repeat(2500))], { review: false }, caps).sections;
    expect(section!.text).toBe(`${"a".repeat(2000)}\n[… AGENTS.md truncated at 2 KB]`);
  });

  it("notes a file that was cut when it was read", () => {
    const [section] = instructionsForPaths([{ path: "CLAUDE.md", text: "short", truncated: true }], { review: false }, caps).sections;
    expect(section!.text).toBe("short\n[… CLAUDE.md truncated at 2 KB]");
  });

  it("cuts the one that reaches the total cap, then leaves the rest out and names them", () => {
    const files = ["AGENTS.md", "a/AGENTS.md", "b/AGENTS.md", "c/AGENTS.md", "d/AGENTS.md"].map((p) => file(p, "z".repeat(1800)));
    const chosen = instructionsForPaths(files, { paths: ["a/x", "b/x", "c/x", "d/x"], review: false }, caps);
    const total = chosen.sections.slice(0, -1).reduce((n, s) => n + s.text.length, 0);
    expect(total).toBeLessThanOrEqual(caps.totalChars);
    expect(chosen.sections.map((s) => s.source)).toEqual(["AGENTS.md", "a/AGENTS.md, nearest to a/x", "b/AGENTS.md, nearest to b/x", "instructions left out"]);
    expect(chosen.sections[2]!.text).toMatch(/\n\[… b\/AGENTS\.md cut: the instructions together are capped at 5 KB\]$/);
    expect(chosen.sections[3]!.text).toBe("These instructions apply too but did not fit (the instructions together are capped at 5 KB):\n- c/AGENTS.md, nearest to c/x\n- d/AGENTS.md, nearest to d/x");
    expect(chosen.applied).toEqual([
      "AGENTS.md",
      "a/AGENTS.md, nearest to a/x",
      "b/AGENTS.md, nearest to b/x [b/AGENTS.md cut: the instructions together are capped at 5 KB]",
      "left out (over the 5 KB cap): c/AGENTS.md, nearest to c/x",
      "left out (over the 5 KB cap): d/AGENTS.md, nearest to d/x",
    ]);
  });

  it("the root's come first, then review.instructions, then nested files: a cap drops the most specific", () => {
    const files = [file("src/AGENTS.md", "n".repeat(1900)), file("AGENTS.md", "r".repeat(1900))];
    const chosen = instructionsForPaths(files, { paths: ["src/a.ts"], review: true, configured: [{ paths: ["src/**"], text: "c".repeat(1900) }] }, { fileChars: 2000, totalChars: 4200 });
    expect(chosen.sections.map((s) => s.source)).toEqual(["AGENTS.md", "review.instructions[0] of .github/crewbot.yml, for src/**: src/a.ts", "instructions left out"]);
  });

  it(`matches at most ${MAX_MATCHED_PATHS} files, and says so`, () => {
    const paths = Array.from({ length: MAX_MATCHED_PATHS + 1 }, (_, i) => `f${i}.ts`).concat("src/a.ts");
    const chosen = instructionsForPaths([file("src/AGENTS.md")], { paths, review: false });
    expect(chosen.sections).toEqual([]);
    expect(chosen.applied).toEqual([`only the first ${MAX_MATCHED_PATHS} of ${MAX_MATCHED_PATHS + 2} files were matched against the instructions`]);
  });
});
