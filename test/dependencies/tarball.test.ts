/**
 * readTarball: in memory, `package/` stripped, unsafe entries refused, caps enforced.
 */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { isCodeFile, readTarball, TARBALL_LIMITS } from "../../src/dependencies/tarball.js";
import { packageTarball, tarOf, type TarEntry } from "../helpers/npm-tarball.js";

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
    // A temporary folder of this test's own: the shared one changes under the suite's other workers.
    const own = await mkdtemp(path.join(tmpdir(), "crewbot-tarball-"));
    const shared = process.env.TMPDIR;
    process.env.TMPDIR = own;
    let reading;
    try {
      reading = await readTarball(bytes);
    } finally {
      if (shared === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = shared;
    }
    expect(await readdir(own)).toEqual([]); // nothing written
    await rm(own, { recursive: true });
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

  it("takes a path from a PAX record or a GNU long name, as npm's tar does", async () => {
    const long = `package/${"deep/".repeat(40)}index.js`;
    const reading = await readTarball(tarOf([{ type: "pax", records: { path: long } }, { type: "file", path: "package/short.js", body: "1" }, { type: "gnu-long-path", path: `${long}x` }, { type: "file", path: "package/other.js", body: "2" }]));
    expect(reading.ok && reading.contents.files).toEqual([long.slice("package/".length), `${long.slice("package/".length)}x`]);
  });

  it("reads the same contents whatever the size of the pieces it parses at a time", async () => {
    const bytes = packageTarball({ "package.json": '{"name":"a"}', ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`lib/f${i}.js`, `exports.n = ${i};\n`.repeat(50)])) });
    const whole = await readTarball(bytes);
    expect(whole.ok && whole.contents.code.size).toBe(40);
    expect(await readTarball(bytes, { pieceBytes: 700 })).toEqual(whole);
    expect(await readTarball(gunzipSync(bytes), { pieceBytes: 512 })).toEqual(whole); // an uncompressed tar too
  });

  const files = (n: number, body = "") => Array.from({ length: n }, (_, i): TarEntry => ({ type: "file", path: `package/f${i}.js`, body }));

  it.each([
    ["entries", { maxEntries: 5 }, tarOf(files(6)), "its tarball has over 5 entries"],
    ["paths and header records", { maxHeaderBytes: 2048 }, tarOf([{ type: "pax", records: { path: `package/${"p".repeat(1500)}` } }, ...files(2)]), "its tarball's paths and header records take over 2 KB"],
    ["one header record", { maxHeaderRecordBytes: 1024 }, tarOf([{ type: "pax", records: { path: `package/${"p".repeat(1500)}` } }, ...files(1)]), "its tarball has a header record over 1 KB"],
    ["unpacked bytes", { maxUnpackedBytes: 4096 }, tarOf(files(4, "x".repeat(1000))), "its tarball unpacks to over 4 KB"],
    ["code text kept", { maxCodeBytes: 2048 }, tarOf(files(3, "x".repeat(1000))), "its code files take over 2 KB"],
    ["wall time", { maxMillis: 1, pieceBytes: 512 }, tarOf(files(2000)), "reading its tarball took over 1 ms"],
  ] as const)("a spent budget of %s is the reason it is not inspected", async (_budget, limits, bytes, reason) => {
    expect(await readTarball(bytes, limits)).toEqual({ ok: false, notInspected: reason });
    expect((await readTarball(bytes)).ok).toBe(true); // within the defaults
  });

  it("names its defaults, each a budget a property can check", () => {
    expect(TARBALL_LIMITS).toEqual({ maxCodeFileBytes: 2 * 1024 * 1024, maxCodeBytes: 32 * 1024 * 1024, maxUnpackedBytes: 100 * 1024 * 1024, maxEntries: 100_000, maxHeaderBytes: 8 * 1024 * 1024, maxHeaderRecordBytes: 64 * 1024, maxMillis: 20_000, pieceBytes: 64 * 1024 });
  });

  it("an unsafe entry wins over a budget spent later, and the count goes on", async () => {
    const reading = await readTarball(tarOf([...Array.from({ length: 5 }, (_, i): TarEntry => ({ type: "symlink", path: `package/l${i}`, target: "/" })), ...files(10)]), { maxEntries: 8 });
    expect(!reading.ok && "fact" in reading && reading.fact.text).toBe("its tarball has a symbolic link `package/l0` → `/` (and 4 more such entries); npm refuses such entries, so it is not inspected");
  });

  it("refuses an archive gzipped twice instead of unpacking the inner one in one go", async () => {
    expect(await readTarball(gzipSync(packageTarball({ "index.js": "1" })))).toEqual({ ok: false, notInspected: "its tarball could not be read (compressed twice)" });
  });

  it("rejects with the signal's reason when the job is stopped", async () => {
    await expect(readTarball(packageTarball({ "index.js": "1" }), { signal: AbortSignal.abort(new Error("stopped")) })).rejects.toThrow("stopped");
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
