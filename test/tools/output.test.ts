import { readFile, rm } from "node:fs/promises";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LineCapper, OutputCollector, formatBytes, tailOf, truncateLine } from "../../src/tools/output.js";
import { withToolErrors } from "../../src/tools/errors.js";
import { runProcess } from "../../src/tools/spawn.js";
import { ToolError, type ToolContext } from "../../src/tools/types.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "crewbot-output-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("output helpers", () => {
  it("formats sizes", () => {
    expect([formatBytes(10), formatBytes(50 * 1024), formatBytes(1536), formatBytes(3 * 1024 * 1024)]).toEqual(["10 B", "50 KB", "1.5 KB", "3.0 MB"]);
  });

  it("truncates long lines and says how long they were", () => {
    expect(truncateLine("abcdef", 3)).toBe("abc… [line truncated: 6 chars]");
    expect(truncateLine("abc", 3)).toBe("abc");
  });

  it("keeps a tail that starts on a UTF-8 boundary", () => {
    const buf = Buffer.from("ééé");
    expect(tailOf(buf, 3).toString()).toBe("é");
  });

  it("LineCapper counts what it drops and why", () => {
    const byLines = new LineCapper(2, 1000);
    for (const l of ["a", "b", "c", "d"]) byLines.add(l);
    expect([byLines.text(), byLines.omitted, byLines.hit]).toEqual(["a\nb", 2, "lines"]);
    const byBytes = new LineCapper(100, 5);
    for (const l of ["aa", "bb", "cc"]) byBytes.add(l);
    expect([byBytes.text(), byBytes.omitted, byBytes.hit]).toEqual(["aa", 2, "bytes"]);
  });
});

describe("OutputCollector", () => {
  it("keeps small output in memory only", async () => {
    const c = new OutputCollector(dir, "t", 10);
    c.push(Buffer.from("hello"));
    expect(await c.finish()).toEqual({ tail: "hello", totalBytes: 5 });
  });

  it("streams everything to an artifact once past the cap and keeps the tail", async () => {
    const c = new OutputCollector(dir, "t", 10);
    for (const piece of ["0123456", "789abc", "defghij"]) c.push(Buffer.from(piece));
    const out = await c.finish();
    expect(out.tail).toBe("abcdefghij");
    expect(out.totalBytes).toBe(20);
    expect(await readFile(out.artifact ?? "", "utf8")).toBe("0123456789abcdefghij");
  });

  it("stops the artifact at its maximum size and says so", async () => {
    const c = new OutputCollector(dir, "t", 4, 8);
    for (const piece of ["aaaa", "bbbb", "cccc"]) c.push(Buffer.from(piece));
    const out = await c.finish();
    expect(out.artifactTruncated).toBe(true);
    expect(await readFile(out.artifact ?? "", "utf8")).toBe("aaaabbbb");
    expect(out.tail).toBe("cccc");
  });

  it("reports an artifact it could not write instead of throwing", async () => {
    const c = new OutputCollector(path.join(dir, "missing-dir"), "t", 2);
    c.push(Buffer.from("abcdef"));
    const out = await c.finish();
    expect(out.artifact).toBeUndefined();
    expect(out.artifactError).toBeTruthy();
  });
});

describe("runProcess", () => {
  it("reports a program that cannot start", async () => {
    const r = await runProcess(["/no/such/program"], { cwd: dir, env: {} });
    expect(r.spawnError).toMatch(/ENOENT/);
  });
});

describe("withToolErrors", () => {
  const ctx = {} as ToolContext;
  it("turns file-system errors into ToolErrors for the model", async () => {
    const run = withToolErrors(async () => {
      await readFile(path.join(dir, "nope"));
      return { output: "", isError: false };
    });
    await expect(run(undefined, ctx)).rejects.toBeInstanceOf(ToolError);
    await expect(run(undefined, ctx)).rejects.toThrow(/ENOENT/);
  });

  it("lets bugs through unchanged", async () => {
    const run = withToolErrors(async () => {
      throw new TypeError("bug");
    });
    await expect(run(undefined, ctx)).rejects.toBeInstanceOf(TypeError);
  });
});
