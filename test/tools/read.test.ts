import { execFileSync } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findTool } from "../../src/tools/find.js";
import { lsTool } from "../../src/tools/ls.js";
import { readTool } from "../../src/tools/read.js";
import { ToolError } from "../../src/tools/types.js";
import { makeWorkspace, type Workspace } from "./fixture.js";

let ws: Workspace;
beforeAll(async () => {
  ws = await makeWorkspace();
  const lines = Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`);
  await writeFile(path.join(ws.root, "long.txt"), `${lines.join("\n")}\n`);
  await writeFile(path.join(ws.root, "crlf.txt"), "one\r\ntwo\r\n");
  await writeFile(path.join(ws.root, "wide.txt"), `short\n${"x".repeat(50_000)}\nafter\n`);
  await writeFile(path.join(ws.root, "fat.txt"), Array.from({ length: 1000 }, () => "y".repeat(1000)).join("\n"));
  await writeFile(path.join(ws.root, "bin.dat"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]));
  await writeFile(path.join(ws.root, "empty.txt"), "");
  await writeFile(path.join(ws.root, ".env.example"), "X=1\n");
  execFileSync("mkfifo", [path.join(ws.root, "fifo")]);
});
afterAll(() => ws.cleanup());

const read = (input: Parameters<typeof readTool.run>[0]) => readTool.run(input, ws.ctx("read-only"));

describe("read", () => {
  it("numbers lines like cat -n and reports filesRead", async () => {
    const r = await read({ path: "src/a.ts" });
    expect(r.output).toBe("     1\texport const a = 1; // needle\n     2\texport const b = 2;");
    expect(r.filesRead).toEqual(["src/a.ts"]);
    expect(r.isError).toBe(false);
  });

  it("pages with 1-based offset and limit, and says how to continue", async () => {
    const r = await read({ path: "long.txt", offset: 10, limit: 3 });
    expect(r.output.split("\n").slice(0, 3)).toEqual(["    10\tline 10", "    11\tline 11", "    12\tline 12"]);
    expect(r.output).toContain("offset=13");
  });

  it("stops at 2000 lines by default", async () => {
    const r = await read({ path: "long.txt" });
    expect(r.output).toContain("  2000\tline 2000");
    expect(r.output).not.toContain("line 2001");
    expect(r.output).toContain("offset=2001");
  });

  it("reads the end of a file without a note", async () => {
    const r = await read({ path: "long.txt", offset: 2999 });
    expect(r.output).toBe("  2999\tline 2999\n  3000\tline 3000");
  });

  it("refuses an offset past the end", async () => {
    await expect(read({ path: "long.txt", offset: 5000 })).rejects.toThrow(/past the end.*3000 lines/);
  });

  it("strips CR of CRLF lines", async () => {
    expect((await read({ path: "crlf.txt" })).output).toBe("     1\tone\n     2\ttwo");
  });

  it("truncates very long lines and says so", async () => {
    const r = await read({ path: "wide.txt" });
    const lines = r.output.split("\n");
    expect(lines[1]).toMatch(/^ {5}2\tx{2000}… \[line truncated: /);
    expect(lines[2]).toBe("     3\tafter");
  });

  it("caps the output at 50 KB with a note to continue", async () => {
    const r = await read({ path: "fat.txt" });
    expect(Buffer.byteLength(r.output)).toBeLessThan(52 * 1024);
    expect(r.output).toMatch(/Output capped at 50 KB after line (\d+)\. Continue with offset=\d+/);
  });

  it("streams a big file (20 MB) and returns only the requested lines", async () => {
    const big = path.join(ws.root, "big.txt");
    const out = createWriteStream(big);
    for (let i = 1; i <= 400_000; i++) out.write(`row ${i} ${"z".repeat(40)}\n`);
    await new Promise((r) => out.end(r));
    const r = await read({ path: "big.txt", offset: 399_999, limit: 5 });
    expect(r.output).toMatch(/^399999\trow 399999 z+\n400000\trow 400000 z+$/);
  });

  it.each([
    ["bin.dat", /binary/],
    ["fifo", /not a regular file/],
    ["src", /is a directory; use ls/],
    [".git/config", /\.git/],
    ["link-file-out", /outside/],
    ["../data/secret.txt", /leaves the checkout/],
  ])("refuses %s", async (p, why) => {
    await expect(read({ path: p })).rejects.toThrow(why);
    await expect(read({ path: p })).rejects.toBeInstanceOf(ToolError);
  });

  it("says a file is empty", async () => {
    expect((await read({ path: "empty.txt" })).output).toMatch(/empty/);
  });

  it("reads a saved artifact by absolute path, without listing it as a checkout file", async () => {
    const r = await read({ path: path.join(ws.artifacts, "out.log") });
    expect(r.output).toBe("     1\tartifact line 1\n     2\tartifact line 2");
    expect(r.filesRead).toEqual([]);
  });
});

describe("ls", () => {
  it("lists sorted entries, marks directories and symlinks, hides .git", async () => {
    const r = await lsTool.run({}, ws.ctx("read-only"));
    const lines = r.output.split("\n");
    expect(lines).not.toContain(".git/");
    expect(lines).toContain("src/");
    expect(lines).toContain(".env.example");
    expect(lines).toContain("link-in -> src/a.ts");
    expect(lines.find((l) => l.startsWith("link-file-out"))).toMatch(/-> .*secret\.txt \(outside the checkout: not readable\)/);
    expect(lines.find((l) => l.startsWith("link-git"))).toMatch(/outside the checkout/);
    expect(lines.find((l) => l.startsWith("dangling"))).toMatch(/broken link/);
    expect([...lines].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(lines);
  });

  it("shows dot-folders and dot-files, and says so in its description", async () => {
    await mkdir(path.join(ws.root, ".github", "workflows"), { recursive: true });
    try {
      const lines = (await lsTool.run({}, ws.ctx("read-only"))).output.split("\n");
      expect(lines).toContain(".github/");
      expect(lines).toContain(".env.example");
      expect(lsTool.description).toMatch(/dot-files included/);
    } finally {
      await rm(path.join(ws.root, ".github"), { recursive: true });
    }
  });

  it("lists a subdirectory", async () => {
    expect((await lsTool.run({ path: "src" }, ws.ctx("read-only"))).output).toBe("a.ts\nlib/");
  });

  it("caps at 1000 entries and says how many more (ls and find)", async () => {
    const dir = path.join(ws.root, "many");
    await mkdir(dir);
    await Promise.all(Array.from({ length: 1050 }, (_, i) => writeFile(path.join(dir, `f${String(i).padStart(4, "0")}`), "")));
    try {
      const r = await lsTool.run({ path: "many" }, ws.ctx("read-only"));
      expect(r.output.split("\n").filter((l) => l.startsWith("f"))).toHaveLength(1000);
      expect(r.output).toMatch(/and 50 more entries/);
      expect((await findTool.run({ pattern: "many/*" }, ws.ctx("read-only"))).output).toMatch(/and 50 more/);
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it.each([".git", "link-dir-out", "../outside", "src/a.ts"])("refuses %s", async (p) => {
    await expect(lsTool.run({ path: p }, ws.ctx("read-only"))).rejects.toBeInstanceOf(ToolError);
  });
});

describe("find", () => {
  it("globs with dot files, relative to the root, sorted, without .git or symlinked content", async () => {
    const r = await findTool.run({ pattern: "**/*" }, ws.ctx("read-only"));
    const files = r.output.split("\n");
    expect(files).toContain(".env.example");
    expect(files).toContain("src/lib/b.ts");
    expect(files.some((f) => /\.git\//i.test(f))).toBe(false);
    expect(files.some((f) => f.startsWith("link-"))).toBe(false);
    expect(r.output).not.toMatch(/secret|file\.txt/);
    expect([...files].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(files);
  });

  it("searches below a path, still printing paths relative to the root", async () => {
    expect((await findTool.run({ pattern: "*.ts", path: "src/lib" }, ws.ctx("read-only"))).output).toBe("src/lib/b.ts");
  });

  it("names the folder it searched plainly when nothing matches", async () => {
    expect((await findTool.run({ pattern: ".github/**" }, ws.ctx("read-only"))).output).toBe("No file in the checkout matches .github/**.");
    expect((await findTool.run({ pattern: "*.py", path: "src/lib" }, ws.ctx("read-only"))).output).toBe("No file under src/lib matches *.py.");
  });

  it("never lists .git even when asked by name", async () => {
    expect((await findTool.run({ pattern: "**/config" }, ws.ctx("read-only"))).output).toMatch(/^No file in the checkout matches/);
    expect((await findTool.run({ pattern: ".git/**" }, ws.ctx("read-only"))).output).toMatch(/^No file in the checkout matches/);
  });

  it.each([
    ["../**", undefined],
    ["{..,src}/*", undefined],
    ["/etc/*", undefined],
    ["*", "link-dir-out"],
    ["*", ".git"],
  ])("refuses pattern %j in %s", async (pattern, p) => {
    await expect(findTool.run({ pattern, ...(p ? { path: p } : {}) }, ws.ctx("read-only"))).rejects.toBeInstanceOf(ToolError);
  });
});
