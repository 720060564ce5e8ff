import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { byPathSegments, createGrepTool, type GrepBackend } from "../../src/tools/grep.js";
import { findExecutable } from "../../src/tools/spawn.js";
import { ToolError } from "../../src/tools/types.js";
import { makeWorkspace, type Workspace } from "./fixture.js";

let ws: Workspace;
beforeAll(async () => {
  ws = await makeWorkspace();
  const w = (rel: string, content: string | Buffer) =>
    mkdir(path.dirname(path.join(ws.root, rel)), { recursive: true }).then(() => writeFile(path.join(ws.root, rel), content));
  await w("a-c.txt", "needle in a-c.txt\n");
  await w("a-c/z.txt", "needle in a-c/z\n");
  await w("a/b.txt", "needle in a/b\r\nno\r\nneedle again\r\n");
  await w(".hidden/h.md", "hidden needle\n");
  await w("node_modules/pkg/index.js", "needle in node_modules\n");
  await w("vendor/.git/config", "needle in nested git\n");
  await w("image.png", Buffer.concat([Buffer.from("needle"), Buffer.from([0, 1, 2]), Buffer.from("needle\n")]));
  await w("many.txt", Array.from({ length: 300 }, (_, i) => `needle ${i}`).join("\n"));
  await w("wide.txt", `needle ${"w".repeat(5000)}\n`);
  // A FIFO: opening it for reading would block forever.
  execFileSync("mkfifo", [path.join(ws.root, "src", "pipe")]);
});
afterAll(() => ws.cleanup());

const hasRg = findExecutable("rg") !== undefined;
const backends: GrepBackend[] = hasRg ? ["rg", "js"] : ["js"];

async function grep(backend: GrepBackend, input: Parameters<ReturnType<typeof createGrepTool>["run"]>[0]) {
  return createGrepTool({ backend }).run(input, ws.ctx("read-only"));
}

describe.each(backends)("grep (%s)", (backend) => {
  it("finds matches as path:line:text, sorted by path, skipping .git, node_modules, binaries and symlinks", async () => {
    const r = await grep(backend, { pattern: "needle", path: ".", glob: "!many.txt" });
    const lines = r.output.split("\n").filter((l) => !l.startsWith("wide.txt"));
    expect(lines).toEqual([
      ".hidden/h.md:1:hidden needle",
      "README.md:3:Some needle text.",
      "a/b.txt:1:needle in a/b",
      "a/b.txt:3:needle again",
      "a-c/z.txt:1:needle in a-c/z",
      "a-c.txt:1:needle in a-c.txt",
      "src/a.ts:1:export const a = 1; // needle",
    ]);
    expect(r.output).not.toMatch(/SECRET|node_modules|\.git|image\.png|link-/);
    expect(r.isError).toBe(false);
  });

  it("ignores case when asked", async () => {
    const r = await grep(backend, { pattern: "NEEDLE", path: "src", ignoreCase: true });
    expect(r.output).toBe("src/a.ts:1:export const a = 1; // needle\nsrc/lib/b.ts:2:console.log(a); // Needle");
  });

  it("filters file names with glob at any depth", async () => {
    expect((await grep(backend, { pattern: "needle", glob: "*.ts", ignoreCase: true })).output).toBe(
      "src/a.ts:1:export const a = 1; // needle\nsrc/lib/b.ts:2:console.log(a); // Needle",
    );
  });

  it("searches a single file", async () => {
    expect((await grep(backend, { pattern: "again", path: "a/b.txt" })).output).toBe("a/b.txt:3:needle again");
  });

  it("treats no matches as a normal result", async () => {
    const r = await grep(backend, { pattern: "no-such-text-anywhere" });
    expect(r).toMatchObject({ isError: false });
    expect(r.output).toMatch(/^No matches/);
  });

  it("echoes a pattern with no matches as given, not escaped again, and names the folder plainly", async () => {
    expect((await grep(backend, { pattern: "\\d+\\.nothing\\(" })).output).toBe("No matches for \\d+\\.nothing\\( in the checkout.");
    expect((await grep(backend, { pattern: "nothing-here", path: "src" })).output).toBe("No matches for nothing-here under src.");
  });

  it("caps at 200 matches and says there are more", async () => {
    const r = await grep(backend, { pattern: "needle \\d+", path: "many.txt" });
    const lines = r.output.split("\n");
    expect(lines.filter((l) => l.startsWith("many.txt:"))).toHaveLength(200);
    expect(r.output).toMatch(/first 200 matches; there are more/);
  });

  it("cuts very long lines", async () => {
    const r = await grep(backend, { pattern: "needle", path: "wide.txt" });
    expect(r.output.length).toBeLessThan(700);
    expect(r.output).toMatch(/line truncated/);
  });

  it("rejects an invalid regex with a clear error", async () => {
    await expect(grep(backend, { pattern: "foo(" })).rejects.toThrow(/Invalid regex/);
  });

  it.each([".git", "link-dir-out", "link-git", "../outside", "vendor/.git"])("refuses to search %s", async (p) => {
    await expect(grep(backend, { pattern: "needle", path: p })).rejects.toBeInstanceOf(ToolError);
  });

  it("refuses a glob that climbs out", async () => {
    await expect(grep(backend, { pattern: "needle", glob: "../**" })).rejects.toThrow(/\.\./);
  });
});

describe.runIf(hasRg)("grep backends agree", () => {
  it.each([
    { pattern: "needle" },
    { pattern: "NEEDLE", ignoreCase: true },
    { pattern: "needle", glob: "*.txt" },
    { pattern: "^export", path: "src" },
    { pattern: "needle \\d+$", path: "." },
  ])("%j", async (input) => {
    expect((await grep("js", input)).output).toBe((await grep("rg", input)).output);
  });
});

describe("byPathSegments", () => {
  it("orders like rg --sort path: directory by directory", () => {
    expect(["a-c.txt", "a-c/z.txt", "a/b.txt", "B"].sort(byPathSegments)).toEqual(["B", "a/b.txt", "a-c/z.txt", "a-c.txt"]);
  });
});
