/**
 * changedPackages: which packages a diff's dependency files change, read from base and head texts.
 */
import { describe, expect, it } from "vitest";
import { DETECTION_LIMITS, type TreeReader } from "../../src/dependencies/dependency-reads.js";
import { DEPENDENCY_FILE, changedPackages, nonRegistryOrigin } from "../../src/dependencies/lockfile-changes.js";
import { jsonKeyLines, keyPath } from "../../src/dependencies/json-lines.js";
import { inLinearTime } from "../helpers/linear-time.js";

const tree = (files: Record<string, unknown>): TreeReader => ({
  read: async (path) => (path in files ? (typeof files[path] === "string" ? (files[path] as string) : `${JSON.stringify(files[path], null, 2)}\n`) : undefined),
});

const I = (c: string) => `sha512-${c.repeat(86)}==`;
const lock = (root: Record<string, unknown>, packages: Record<string, unknown>) => ({ name: "app", version: "1.0.0", lockfileVersion: 3, requires: true, packages: { "": { name: "app", version: "1.0.0", ...root }, ...packages } });
const lineOf = (text: string, needle: string, from = 0) => text.slice(0, text.indexOf(needle, from)).split("\n").length;

describe("DEPENDENCY_FILE", () => {
  it.each([
    ["package.json", true],
    ["packages/web/package-lock.json", true],
    ["npm-shrinkwrap.json", true],
    ["a/b/package.json", true],
    ["my-package.json", false],
    ["package.json.bak", false],
    ["yarn.lock", false],
  ])("%s → %s", (path, expected) => expect(DEPENDENCY_FILE.test(path)).toBe(expected));
});

describe("changedPackages from a lockfile", () => {
  const base = lock({ dependencies: { direct: "^1.0.0" } }, {
    "node_modules/direct": { version: "1.0.0", integrity: I("a"), dependencies: { deep: "^2.0.0" } },
    "node_modules/deep": { version: "2.0.0", integrity: I("b") },
    "node_modules/removed": { version: "0.1.0", integrity: I("c") },
    "node_modules/same": { version: "3.0.0", integrity: I("d") },
  });
  const head = lock({ dependencies: { direct: "^1.0.0", added: "^4.0.0" } }, {
    "node_modules/direct": { version: "1.0.0", integrity: I("a"), dependencies: { deep: "^2.0.0" } },
    "node_modules/deep": { version: "2.1.0", integrity: I("e") },
    "node_modules/added": { version: "4.0.0", integrity: I("f") },
    "node_modules/same": { version: "3.0.0", integrity: I("g") },
  });
  const headText = `${JSON.stringify(head, null, 2)}\n`;

  it("lists version and integrity changes, additions and removals, direct or transitive, on the version's line", async () => {
    const result = await changedPackages(["package-lock.json", "src/index.ts"], tree({ "package-lock.json": base }), tree({ "package-lock.json": head }));
    const at = (key: string) => lineOf(headText, '"version"', headText.indexOf(`"${key}": {`));
    expect(result).toEqual({
      problems: [],
      changes: [
        { name: "deep", location: "node_modules/deep", old: { version: "2.0.0", integrity: I("b") }, new: { version: "2.1.0", integrity: I("e") }, direct: false, file: "package-lock.json", line: at("node_modules/deep"), source: "lockfile" },
        { name: "added", location: "node_modules/added", new: { version: "4.0.0", integrity: I("f") }, direct: true, file: "package-lock.json", line: at("node_modules/added"), source: "lockfile" },
        { name: "same", location: "node_modules/same", old: { version: "3.0.0", integrity: I("d") }, new: { version: "3.0.0", integrity: I("g") }, direct: false, file: "package-lock.json", line: at("node_modules/same"), source: "lockfile" },
        { name: "removed", location: "node_modules/removed", old: { version: "0.1.0", integrity: I("c") }, direct: false, file: "package-lock.json", line: 1, source: "lockfile" },
      ],
    });
    expect(headText.split("\n")[at("node_modules/deep") - 1]).toBe('      "version": "2.1.0",');
  });

  it("a lockfile-only transitive change is direct: false, even with package.json unchanged", async () => {
    const only = lock({ dependencies: { direct: "^1.0.0" } }, { ...base.packages, "node_modules/direct/node_modules/deep": { version: "2.0.1", integrity: I("h") } });
    const result = await changedPackages(["package-lock.json"], tree({ "package-lock.json": base }), tree({ "package-lock.json": only }));
    expect(result.changes.map((c) => [c.name, c.location, c.direct, c.old, c.new?.version])).toEqual([["deep", "node_modules/direct/node_modules/deep", false, undefined, "2.0.1"]]);
  });

  it("a workspace's own dependency is direct with its workspace; links and workspace folders are not packages", async () => {
    const packages = (version: string) => ({
      "node_modules/web": { resolved: "packages/web", link: true },
      "packages/web": { name: "web", version: "0.0.1", dependencies: { react: "^18.0.0", hoisted: "^1.0.0" } },
      "packages/web/node_modules/react": { version, integrity: I(version === "18.2.0" ? "i" : "j") },
      "node_modules/hoisted": { version: version === "18.2.0" ? "1.0.0" : "1.1.0" },
      "node_modules/react": { version: "17.0.2" },
    });
    const before = lock({ workspaces: ["packages/*"] }, packages("18.2.0"));
    const after = lock({ workspaces: ["packages/*"] }, { ...packages("18.3.1"), "packages/web": { name: "web", version: "0.0.2", dependencies: { react: "^18.0.0", hoisted: "^1.0.0" } } });
    const result = await changedPackages(["package-lock.json", "packages/web/package.json"], tree({ "package-lock.json": before }), tree({ "package-lock.json": after, "packages/web/package.json": { name: "web", dependencies: { react: "^18.3.0" } } }));
    expect(result.problems).toEqual([]);
    expect(result.changes.map((c) => [c.name, c.location, c.old?.version, c.new?.version, c.direct, c.workspace])).toEqual([
      ["react", "packages/web/node_modules/react", "18.2.0", "18.3.1", true, "packages/web"],
      ["hoisted", "node_modules/hoisted", "1.0.0", "1.1.0", true, "packages/web"],
    ]);
  });

  it("keeps an alias's real name and marks versions not from a registry", async () => {
    const before = lock({ dependencies: { alias: "npm:real@^1" } }, {});
    const after = lock({ dependencies: { alias: "npm:real@^1", gitdep: "github:o/r" } }, {
      "node_modules/alias": { name: "real", version: "1.0.0", resolved: "https://registry.npmjs.org/real/-/real-1.0.0.tgz", integrity: I("k") },
      "node_modules/gitdep": { version: "0.3.0", resolved: "git+ssh://git@github.com/o/r.git#abc" },
    });
    const result = await changedPackages(["package-lock.json"], tree({ "package-lock.json": before }), tree({ "package-lock.json": after }));
    expect(result.changes.map((c) => [c.name, c.location, c.direct, c.new])).toEqual([
      ["real", "node_modules/alias", true, { version: "1.0.0", integrity: I("k") }],
      ["gitdep", "node_modules/gitdep", true, { version: "0.3.0", nonRegistry: "a git dependency" }],
    ]);
  });

  it("prefers npm-shrinkwrap.json over package-lock.json in the same folder", async () => {
    const after = lock({}, { "node_modules/x": { version: "1.0.0" } });
    const result = await changedPackages(["package-lock.json", "npm-shrinkwrap.json"], tree({}), tree({ "package-lock.json": after, "npm-shrinkwrap.json": after }));
    expect(result.changes.map((c) => c.file)).toEqual(["npm-shrinkwrap.json"]);
  });
});

describe("changedPackages: problems, not crashes", () => {
  it.each([
    ["a v1 lockfile", { lockfileVersion: 1, dependencies: { a: { version: "1.0.0" } } }, "lockfile v1: package-lock.json on the head has no `packages` map (npm 7 or newer writes one); its packages are not reviewed"],
    ["bad JSON", "{ not json", expect.stringMatching(/^package-lock\.json is not valid JSON on the head \(.+\); its packages are not reviewed$/)],
    ["not an object", "[]", "package-lock.json on the head is not a lockfile (not a JSON object); its packages are not reviewed"],
  ])("%s", async (_label, headLock, problem) => {
    const result = await changedPackages(["package-lock.json"], tree({}), tree({ "package-lock.json": headLock }));
    expect(result).toEqual({ changes: [], problems: [problem] });
  });

  it("a deleted lockfile is a problem; a v1 base as well, and the manifest then speaks", async () => {
    expect((await changedPackages(["package-lock.json"], tree({ "package-lock.json": lock({}, {}) }), tree({}))).problems).toEqual([
      "package-lock.json is deleted by the pull request; its packages are not reviewed",
    ]);
    const result = await changedPackages(
      ["package-lock.json", "package.json"],
      tree({ "package-lock.json": { lockfileVersion: 1, dependencies: {} }, "package.json": { dependencies: { a: "^1.0.0" } } }),
      tree({ "package-lock.json": lock({}, {}), "package.json": { dependencies: { a: "^2.0.0" } } }),
    );
    expect(result.problems).toEqual(["lockfile v1: package-lock.json on the base has no `packages` map (npm 7 or newer writes one); its packages are not reviewed"]);
    expect(result.changes.map((c) => [c.name, c.old?.version, c.new?.version, c.source])).toEqual([["a", "^1.0.0", "^2.0.0", "manifest"]]);
  });

  it("bad JSON in a manifest names the file", async () => {
    expect(await changedPackages(["web/package.json"], tree({}), tree({ "web/package.json": "{" }))).toEqual({
      changes: [],
      problems: [expect.stringMatching(/^web\/package\.json is not valid JSON on the head/)],
    });
  });
});

describe("changedPackages under the review's budgets", () => {
  const manifest = (deps: Record<string, string>) => ({ name: "m", dependencies: deps });

  it("keeps at most maxChanges changes and counts the others, in a lockfile and in manifests", async () => {
    const packages = (version: string) => Object.fromEntries(["a", "b", "c", "d"].map((n) => [`node_modules/${n}`, { version }]));
    const result = await changedPackages(
      ["package-lock.json", "tools/package.json"],
      tree({ "package-lock.json": lock({}, packages("1.0.0")) }),
      tree({ "package-lock.json": lock({}, packages("2.0.0")), "tools/package.json": manifest({ x: "1", y: "2" }) }),
      { maxChanges: 3 },
    );
    expect(result.changes.map((c) => c.name)).toEqual(["a", "b", "c"]);
    expect(result.problems).toEqual([
      "package-lock.json changes 1 more npm package than the 3 a review lists; it is not reviewed",
      "1 dependency file was not read (`tools/package.json`): the review already lists the 3 changed npm packages it may; their packages are not reviewed",
    ]);
    const manifests = await changedPackages(["tools/package.json"], tree({}), tree({ "tools/package.json": manifest({ x: "1", y: "2", z: "3" }) }), { maxChanges: 1 });
    expect(manifests.changes.map((c) => c.name)).toEqual(["x"]);
    expect(manifests.problems).toEqual(["tools/package.json changes 2 more npm packages than the 1 a review lists; they are not reviewed"]);
  });

  it("reads no file once the review lists all the changes it may: a lockfile after it is named, not parsed", async () => {
    const read: string[] = [];
    const head: TreeReader = { read: async (path) => (read.push(path), JSON.stringify(lock({}, { "node_modules/a": { version: "2.0.0" }, "node_modules/b": { version: "2.0.0" } }))) };
    const result = await changedPackages(["package-lock.json", "a/package-lock.json", "b/package-lock.json"], tree({}), head, { maxChanges: 2 });
    expect(read).toEqual(["package-lock.json"]);
    expect(result.changes.map((c) => c.name)).toEqual(["a", "b"]);
    expect(result.problems).toEqual(["2 dependency files were not read (`a/package-lock.json`, `b/package-lock.json`): the review already lists the 2 changed npm packages it may; their packages are not reviewed"]);
  });

  it("reads at most maxFiles files, and names the others in one problem", async () => {
    const paths = ["a/package.json", "b/package.json", "c/package.json", "d/package.json", "e/package.json"];
    const read: string[] = [];
    const head: TreeReader = { read: async (path) => (read.push(path), JSON.stringify(manifest({ [path[0]!]: "1" }))) };
    const result = await changedPackages(paths, tree({}), head, { maxFiles: 1 });
    expect(read).toEqual(["a/package.json"]);
    expect(result.changes.map((c) => c.name)).toEqual(["a"]);
    expect(result.problems).toEqual(["4 dependency files were not read (`b/package.json`, `c/package.json`, `d/package.json` and 1 more): a review reads at most 1 of them and 64 MB in all; their packages are not reviewed"]);
  });

  it("reads at most maxBytes in all, both sides counted, and a reader is told what is left", async () => {
    const text = JSON.stringify(manifest({ a: "1", pad: "x".repeat(900) }));
    const allowed: number[] = [];
    const reader: TreeReader = { read: async (_path, maxBytes) => (allowed.push(maxBytes), text) };
    const result = await changedPackages(["a/package.json", "b/package.json"], reader, reader, { maxBytes: 3000 });
    expect(allowed).toEqual([3000, 3000 - text.length, 3000 - 2 * text.length, 3000 - 3 * text.length]); // b: its head fits, its base does not
    expect(result.changes.map((c) => c.file)).toEqual([]); // a's base equals its head
    expect(result.problems).toEqual(["1 dependency file was not read (`b/package.json`): a review reads at most 100 of them and 3 KB in all; their packages are not reviewed"]);
  });

  it("a file over maxFileBytes is a problem naming it, and is not parsed", async () => {
    const result = await changedPackages(["package-lock.json"], tree({}), tree({ "package-lock.json": lock({}, { "node_modules/a": { version: "1.0.0", pad: "x".repeat(5000) } }) }), { maxFileBytes: 4096 });
    expect(result).toEqual({ changes: [], problems: ["package-lock.json is 5 KB on the head, over the 4 KB a dependency file may have; its packages are not reviewed"] });
  });

  it("names its defaults, each a budget a property can check", () => {
    expect(DETECTION_LIMITS).toEqual({ maxFiles: 100, maxBytes: 64 * 1024 * 1024, maxFileBytes: 16 * 1024 * 1024, maxChanges: 10_000 });
  });
});

describe("changedPackages from manifests (no lockfile change in the folder)", () => {
  it("lists changed, added and removed ranges of every dependency field on the dependency's line", async () => {
    const before = { name: "app", dependencies: { keep: "1.0.0", bump: "^1.0.0", drop: "^0.1.0" }, devDependencies: { vitest: "^3.0.0" } };
    const after = { name: "app", dependencies: { keep: "1.0.0", bump: "^2.0.0" }, devDependencies: { vitest: "^4.0.0" }, peerDependencies: { react: ">=18" } };
    const headText = `${JSON.stringify(after, null, 2)}\n`;
    const result = await changedPackages(["tools/package.json"], tree({ "tools/package.json": before }), tree({ "tools/package.json": after }));
    const common = { direct: true, workspace: "tools", file: "tools/package.json", source: "manifest" };
    expect(result).toEqual({
      problems: [],
      changes: [
        { name: "bump", location: "bump", old: { version: "^1.0.0" }, new: { version: "^2.0.0" }, ...common, line: lineOf(headText, '"bump"') },
        { name: "vitest", location: "vitest", old: { version: "^3.0.0" }, new: { version: "^4.0.0" }, ...common, line: lineOf(headText, '"vitest"') },
        { name: "react", location: "react", new: { version: ">=18" }, ...common, line: lineOf(headText, '"react"') },
        { name: "drop", location: "drop", old: { version: "^0.1.0" }, ...common, line: 1 },
      ],
    });
  });

  it("a root manifest's change has no workspace; an unchanged range is no change", async () => {
    const result = await changedPackages(["package.json"], tree({ "package.json": { dependencies: { a: "1" } } }), tree({ "package.json": { dependencies: { a: "1", b: "2" } } }));
    expect(result.changes).toEqual([{ name: "b", location: "b", new: { version: "2" }, direct: true, file: "package.json", line: 4, source: "manifest" }]);
  });
});

describe("helpers", () => {
  it.each([
    [undefined, undefined],
    ["https://registry.npmjs.org/a/-/a-1.0.0.tgz", undefined],
    ["https://npm.internal.example/api/npm/@s/a/-/a-1.0.0.tgz", undefined],
    ["https://example.test/a.tgz", "a tarball URL"],
    ["git+https://github.com/o/r.git#abc", "a git dependency"],
    ["github:o/r", "a git dependency"],
    ["file:../local", "a local file"],
    ["packages/web", "not from a registry"],
  ])("nonRegistryOrigin(%s) → %s", (resolved, expected) => expect(nonRegistryOrigin(resolved)).toBe(expected));

  it("jsonKeyLines keeps only the wanted keys, and stays linear on deep nesting and runs of backslashes", () => {
    const text = '{\n  "a": {\n    "b": 1,\n    "c": 2\n  }\n}';
    expect(jsonKeyLines(text, 3, new Set([keyPath("a", "c")]))).toEqual(new Map([[keyPath("a", "c"), 4]]));
    const deep = `${"[".repeat(500_000)}${"]".repeat(500_000)}`;
    const slashes = `{"k": "${"\\\\".repeat(200_000)}", "z\\"": 1}`;
    expect(inLinearTime(() => jsonKeyLines(deep)).size).toBe(0);
    expect([...inLinearTime(() => jsonKeyLines(slashes)).keys()]).toEqual([keyPath("k"), keyPath('z"')]);
  });

  it("jsonKeyLines finds keys with escapes and braces inside strings", () => {
    const text = '{\n  "a": "}{\\"",\n  "b": {\n    "c\\"d": [1, {"e": 2}],\n    "f": 3\n  }\n}';
    const lines = jsonKeyLines(text);
    expect([lines.get(keyPath("a")), lines.get(keyPath("b")), lines.get(keyPath("b", 'c"d')), lines.get(keyPath("b", "f"))]).toEqual([2, 3, 4, 5]);
  });
});
