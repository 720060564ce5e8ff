/**
 * readTarball: in memory, `package/` stripped, unsafe entries refused, caps enforced.
 */
import { readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { isCodeFile, readTarball } from "../../src/dependencies/tarball.js";
import { packageTarball, tarOf } from "../helpers/npm-tarball.js";

describe("readTarball", () => {
  it("keeps package.json, the file list, code texts, binding.gyp and .node files", async () => {
    const bytes = packageTarball({
      "package.json": '{"name":"a","version":"1.0.0"}',
      "index.js": "module.exports = 1",
      "types/index.d.ts": "export {}",
      "README.md": "# a",
      "binding.gyp": "{}",
      "build/Release/a.node": Buffer.from([0x7f, 0x45, 0x4c, 0x46]),
      "src/b.mts": "export const b = 2",
    });
    const before = await readdir(tmpdir());
    const reading = await readTarball(bytes);
    expect(reading).toEqual({
      ok: true,
      contents: {
        packageJson: { name: "a", version: "1.0.0" },
        files: ["package.json", "index.js", "types/index.d.ts", "README.md", "binding.gyp", "build/Release/a.node", "src/b.mts"],
        code: new Map([["index.js", "module.exports = 1"], ["src/b.mts", "export const b = 2"]]),
        unreadCode: [],
        bindingGyp: true,
        nativeFiles: ["build/Release/a.node"],
      },
    });
    expect(await readdir(tmpdir())).toEqual(before); // nothing written
  });

  it("strips whatever the first folder is called, as npm does", async () => {
    const reading = await readTarball(tarOf([{ type: "file", path: "node-a/index.js", body: "1" }, { type: "file", path: "top-level-file", body: "x" }]));
    expect(reading.ok && reading.contents.files).toEqual(["index.js"]);
  });

  it.each([
    ["a `..` path", { type: "file", path: "package/../../x.js", body: "x" }, "a path out of the package folder `package/../../x.js`", "package/../../x.js"],
    ["an absolute path", { type: "file", path: "/etc/cron.d/x", body: "x" }, "an absolute path `/etc/cron.d/x`", "/etc/cron.d/x"],
    ["a symbolic link", { type: "symlink", path: "package/l", target: "../../.ssh" }, "a symbolic link `package/l` → `../../.ssh`", "package/l"],
    ["a hard link", { type: "hardlink", path: "package/h", target: "/etc/shadow" }, "a hard link `package/h` → `/etc/shadow`", "package/h"],
  ] as const)("refuses %s", async (_label, entry, words, file) => {
    const reading = await readTarball(packageTarball({ "package.json": "{}" }, [entry]));
    expect(reading).toEqual({ ok: false, fact: { kind: "unsafe-entry", severity: "critical", text: `its tarball has ${words}; npm refuses such entries, so it is not inspected`, files: [file] } });
  });

  it("says how many unsafe entries there are", async () => {
    const reading = await readTarball(tarOf([{ type: "symlink", path: "package/a", target: "/" }, { type: "symlink", path: "package/b", target: "/" }, { type: "file", path: "package/../c", body: "" }]));
    expect(!reading.ok && "fact" in reading && reading.fact.text).toBe("its tarball has a symbolic link `package/a` → `/` (and 2 more such entries); npm refuses such entries, so it is not inspected");
  });

  it("does not read code files over the per-file cap, and refuses a tarball over the unpacked cap", async () => {
    const bytes = packageTarball({ "package.json": "{}", "big.js": "x".repeat(5000), "small.js": "y" });
    const capped = await readTarball(bytes, { maxCodeFileBytes: 1000 });
    expect(capped.ok && [capped.contents.unreadCode, [...capped.contents.code.keys()]]).toEqual([["big.js"], ["small.js"]]);
    expect(await readTarball(bytes, { maxUnpackedBytes: 4000 })).toEqual({ ok: false, notInspected: "its tarball unpacks to over 4 KB" });
    expect(await readTarball(packageTarball({ "a.bin": Buffer.alloc(3 * 1024 * 1024) }), { maxUnpackedBytes: 2 * 1024 * 1024 })).toEqual({ ok: false, notInspected: "its tarball unpacks to over 2 MB" });
  });

  it("a tarball that is not one is not inspected, with why", async () => {
    const reading = await readTarball(gzipSync(Buffer.from("just some text, not a tar archive at all".repeat(20))));
    expect(reading).toEqual({ ok: false, notInspected: expect.stringMatching(/^its tarball could not be read \(.+\)$/) });
  });

  it.each([
    ["a.js", true],
    ["a.cjs", true],
    ["a.tsx", true],
    ["a.d.ts", false],
    ["a.d.mts", false],
    ["a.json", false],
    ["a.js.map", false],
  ])("isCodeFile(%s) → %s", (file, expected) => expect(isCodeFile(file)).toBe(expected));
});
