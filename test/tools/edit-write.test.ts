import { existsSync } from "node:fs";
import { readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countOccurrences, editTool } from "../../src/tools/edit.js";
import { ToolError } from "../../src/tools/types.js";
import { writeTool } from "../../src/tools/write.js";
import { makeWorkspace, type Workspace } from "./fixture.js";

let ws: Workspace;
beforeAll(async () => {
  ws = await makeWorkspace();
});
afterAll(() => ws.cleanup());

const at = (rel: string) => path.join(ws.root, rel);
const edit = (input: Parameters<typeof editTool.run>[0]) => editTool.run(input, ws.ctx("write"));
const write = (input: Parameters<typeof writeTool.run>[0]) => writeTool.run(input, ws.ctx("write"));

describe("edit", () => {
  it("replaces the one match and returns a small unified diff", async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    await writeFile(at("e1.txt"), `${lines.join("\n")}\n`);
    const r = await edit({ path: "e1.txt", oldText: "line 10\n", newText: "line ten\n" });
    expect(r).toMatchObject({ isError: false, filesChanged: ["e1.txt"] });
    expect(r.output).toContain("--- e1.txt\n+++ e1.txt\n@@ -8,5 +8,5 @@\n line 8\n line 9\n-line 10\n+line ten\n line 11\n line 12");
    expect(r.output).not.toContain("line 5");
    expect(await readFile(at("e1.txt"), "utf8")).toBe(`${lines.join("\n").replace("line 10\n", "line ten\n")}\n`);
  });

  it("names the count when oldText matches 0 times, and changes nothing", async () => {
    await writeFile(at("e2.txt"), "alpha\nbeta\n");
    await expect(edit({ path: "e2.txt", oldText: "gamma", newText: "x" })).rejects.toThrow(/found 0 times/);
    expect(await readFile(at("e2.txt"), "utf8")).toBe("alpha\nbeta\n");
  });

  it("names the count when oldText matches twice, hints at surrounding lines, and changes nothing", async () => {
    await writeFile(at("e3.txt"), "x = 1\ny = 2\nx = 1\n");
    const err = await edit({ path: "e3.txt", oldText: "x = 1", newText: "x = 3" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect((err as Error).message).toMatch(/found 2 times.*surrounding lines/);
    expect(await readFile(at("e3.txt"), "utf8")).toBe("x = 1\ny = 2\nx = 1\n");
  });

  it("counts overlapping matches", () => {
    expect(countOccurrences("aaa", "aa")).toBe(2);
  });

  it("keeps $ patterns in newText literal", async () => {
    await writeFile(at("e4.txt"), "price: X\n");
    await edit({ path: "e4.txt", oldText: "X", newText: "$& $1 $$" });
    expect(await readFile(at("e4.txt"), "utf8")).toBe("price: $& $1 $$\n");
  });

  it("edits a CRLF file with an LF oldText, keeping CRLF", async () => {
    await writeFile(at("e5.txt"), "one\r\ntwo\r\nthree\r\n");
    await edit({ path: "e5.txt", oldText: "one\ntwo", newText: "one\n2" });
    expect(await readFile(at("e5.txt"), "utf8")).toBe("one\r\n2\r\nthree\r\n");
  });

  it.each([
    ["missing.txt", /does not exist/],
    [".git/config", /\.git/],
    ["link-git-config", /\.git/],
    ["link-file-out", /outside/],
    ["../data/secret.txt", /leaves the checkout/],
  ])("refuses %s", async (p, why) => {
    await expect(edit({ path: p, oldText: "a", newText: "b" })).rejects.toThrow(why);
  });

  it("is refused in plan mode", async () => {
    await expect(editTool.run({ path: "src/a.ts", oldText: "a", newText: "b" }, ws.ctx("read-only"))).rejects.toThrow(/plan/);
  });
});

describe("write", () => {
  it("creates parent directories and reports bytes and filesChanged", async () => {
    const r = await write({ path: "new/deep/dir/f.txt", content: "héllo\n" });
    expect(r).toMatchObject({ isError: false, filesChanged: ["new/deep/dir/f.txt"] });
    expect(r.output).toMatch(/Created new\/deep\/dir\/f\.txt \(7 bytes\)/);
    expect(await readFile(at("new/deep/dir/f.txt"), "utf8")).toBe("héllo\n");
  });

  it("overwrites", async () => {
    await write({ path: "ow.txt", content: "first" });
    const r = await write({ path: "ow.txt", content: "second" });
    expect(r.output).toMatch(/^Overwrote/);
    expect(await readFile(at("ow.txt"), "utf8")).toBe("second");
  });

  it("refuses to write through a symlinked parent dir and creates nothing outside", async () => {
    const before = await readdir(path.join(ws.outside, "dir"));
    await expect(write({ path: "link-dir-out/pwned.txt", content: "x" })).rejects.toThrow(/outside/);
    await expect(write({ path: "link-dir-out/sub/pwned.txt", content: "x" })).rejects.toThrow(/outside/);
    expect(await readdir(path.join(ws.outside, "dir"))).toEqual(before);
  });

  it("refuses to write through a symlinked file or a dangling symlink", async () => {
    await expect(write({ path: "link-file-out", content: "x" })).rejects.toThrow(/outside/);
    await expect(write({ path: "dangling", content: "x" })).rejects.toThrow(/symlink/);
    expect(await readFile(path.join(ws.outside, "secret.txt"), "utf8")).toBe("OUTSIDE-SECRET needle\n");
    expect(existsSync(path.join(ws.outside, "missing.txt"))).toBe(false);
  });

  it.each([".git/hooks/pre-commit", ".GIT/config", "link-git/hooks/post-checkout", "../escape.txt", "/tmp/escape.txt", "~/x"])(
    "refuses %s",
    async (p) => {
      await expect(write({ path: p, content: "x" })).rejects.toBeInstanceOf(ToolError);
    },
  );

  it("refuses the artifacts dir (readable, not writable)", async () => {
    await expect(write({ path: path.join(ws.artifacts, "out.log"), content: "x" })).rejects.toThrow(/absolute/);
    expect(await readFile(path.join(ws.artifacts, "out.log"), "utf8")).toBe("artifact line 1\nartifact line 2\n");
  });

  it("leaves .git untouched by all of the above", async () => {
    expect((await readdir(path.join(ws.root, ".git"))).sort()).toEqual(["config", "hooks"]);
    expect(await readdir(path.join(ws.root, ".git", "hooks"))).toEqual([]);
  });

  it("is refused in plan mode", async () => {
    await expect(writeTool.run({ path: "x.txt", content: "x" }, ws.ctx("read-only"))).rejects.toThrow(/plan/);
    expect(existsSync(at("x.txt"))).toBe(false);
  });
});
