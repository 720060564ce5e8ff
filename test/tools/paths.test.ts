import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertSafeGlob, hasGitSegment, resolvePath, type Access } from "../../src/tools/paths.js";
import { ToolError } from "../../src/tools/types.js";
import { makeWorkspace, type Workspace } from "./fixture.js";

let ws: Workspace;
beforeAll(async () => {
  ws = await makeWorkspace();
});
afterAll(() => ws.cleanup());

async function refusal(p: string, access: Access): Promise<string> {
  try {
    await resolvePath(ws.ctx("write"), p, { access });
  } catch (err) {
    expect(err).toBeInstanceOf(ToolError);
    return (err as Error).message;
  }
  throw new Error(`${p} was not refused for ${access}`);
}

describe("resolvePath: allowed", () => {
  it.each([
    ["src/a.ts", "src/a.ts", true],
    ["./src/../src/a.ts", "src/a.ts", true],
    ["src/lib/", "src/lib", true],
    [".", ".", true],
    ["link-in", "src/a.ts", true],
  ])("read %s → %s", async (p, rel, exists) => {
    const r = await resolvePath(ws.ctx("read-only"), p, { access: "read" });
    expect(r).toMatchObject({ rel, exists, inReadRoot: false });
    expect(r.abs).toBe(rel === "." ? ws.root : path.join(ws.root, rel));
  });

  it("reads the artifacts dir by absolute path (a read root)", async () => {
    const abs = path.join(ws.artifacts, "out.log");
    const r = await resolvePath(ws.ctx("read-only"), abs, { access: "read" });
    expect(r).toMatchObject({ abs, rel: abs, inReadRoot: true });
  });

  it.each([
    ["new/dir/file.txt", false],
    ["src/a.ts", true],
    ["src/new.ts", false],
  ])("write %s (exists: %s)", async (p, exists) => {
    const r = await resolvePath(ws.ctx("write"), p, { access: "write" });
    expect(r).toMatchObject({ rel: p, abs: path.join(ws.root, p), exists });
  });
});

describe("resolvePath: refused", () => {
  it.each<[string, Access, RegExp]>([
    ["../outside/secret.txt", "read", /leaves the checkout/],
    ["src/../../outside/secret.txt", "read", /leaves the checkout/],
    ["..", "read", /leaves the checkout/],
    ["../data/secret.txt", "write", /leaves the checkout/],
    ["/etc/passwd", "read", /absolute/],
    ["/etc/passwd", "write", /absolute/],
    ["~", "read", /~/],
    ["~/.ssh/id_rsa", "read", /~/],
    ["~root/x", "write", /~/],
    ["a\0b", "read", /NUL/],
    ["", "read", /empty/],
    [".git", "read", /\.git/],
    [".git/config", "read", /\.git/],
    [".GIT/config", "read", /\.git/],
    [".Git/HEAD", "write", /\.git/],
    ["./.git/hooks/pre-commit", "write", /\.git/],
    ["src/../.git/config", "read", /\.git/],
    ["vendor/sub/.git/config", "read", /\.git/],
    ["link-file-out", "read", /symlink.*outside/],
    ["link-file-out", "write", /symlink.*outside/],
    ["link-dir-out", "read", /symlink.*outside/],
    ["link-dir-out/file.txt", "read", /symlink.*outside/],
    ["link-dir-out/new.txt", "write", /symlink.*outside/],
    ["link-dir-out/deeper/new.txt", "write", /symlink.*outside/],
    ["link-git/config", "read", /\.git/],
    ["link-git/hooks/pre-commit", "write", /\.git/],
    ["link-git-config", "read", /\.git/],
    ["link-git-config", "write", /\.git/],
    ["dangling", "write", /symlink whose target does not exist/],
    ["missing.txt", "read", /Not found/],
  ])("%j (%s)", async (p, access, why) => {
    expect(await refusal(p, access)).toMatch(why);
  });

  it("refuses an absolute path into the checkout itself (paths are relative)", async () => {
    expect(await refusal(path.join(ws.root, "src/a.ts"), "read")).toMatch(/absolute/);
  });

  it("refuses writing into the artifacts dir, even though it is readable", async () => {
    expect(await refusal(path.join(ws.artifacts, "new.log"), "write")).toMatch(/absolute/);
    expect(await refusal(path.join(ws.artifacts, "out.log"), "write")).toMatch(/absolute/);
  });

  it("refuses a symlink in the artifacts dir that leads out of it, and '..' out of it", async () => {
    expect(await refusal(path.join(ws.artifacts, "escape.log"), "read")).toMatch(/symlink/);
    expect(await refusal(`${ws.artifacts}/../secret.txt`, "read")).toMatch(/absolute/);
  });

  it("refuses the .git file of a worktree and a symlink loop", async () => {
    const wt = path.join(ws.root, "wt");
    await mkdir(wt);
    await writeFile(path.join(wt, ".git"), "gitdir: /elsewhere\n");
    await symlink("loop-b", path.join(ws.root, "loop-a"));
    await symlink("loop-a", path.join(ws.root, "loop-b"));
    expect(await refusal("wt/.git", "read")).toMatch(/\.git/);
    expect(await refusal("loop-a", "read")).toMatch(/loop/);
    expect(await refusal("loop-a/x", "write")).toMatch(/loop/);
  });
});

describe("hasGitSegment", () => {
  it.each([
    [".git", true],
    ["a/.GIT/b", true],
    [".gitignore", false],
    ["a/.github/x", false],
    ["my.git", false],
  ])("%s → %s", (p, expected) => expect(hasGitSegment(p)).toBe(expected));
});

describe("assertSafeGlob", () => {
  it.each(["**/*.ts", "src/*.{js,json}", "!*.md", ".github/**"])("accepts %s", (g) => expect(() => assertSafeGlob(g)).not.toThrow());
  it.each(["../*", "a/../../b", "{..,a}/*", "/etc/*", "!/etc/*", "~/x", "a\0"])("refuses %j", (g) =>
    expect(() => assertSafeGlob(g)).toThrow(ToolError),
  );
});
