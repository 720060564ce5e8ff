/** The bounded copy behind `prove`: what it copies, and where it stops (a cap, the signal, the deadline). */
import { lstat, mkdir, mkdtemp, open, readdir, readFile, readlink, realpath, rm, stat, symlink, writeFile, chmod } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { copyTree, CopyStopped, type CopyBounds } from "../../src/tools/copy-tree.js";

let base: string;
let from: string;
let to: string;
const roomy = (o: Partial<CopyBounds> = {}): CopyBounds => ({ signal: new AbortController().signal, deadline: Date.now() + 60_000, maxBytes: 1024 * 1024, maxEntries: 1000, ...o });

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "crewbot-copy-")));
  from = path.join(base, "from");
  to = path.join(base, "to");
  await mkdir(path.join(from, ".git"), { recursive: true });
  await writeFile(path.join(from, ".git", "config"), "secret\n");
  await mkdir(path.join(from, "src", "deep"), { recursive: true });
  await writeFile(path.join(from, "src", "deep", "a.txt"), "a\n");
  await writeFile(path.join(from, "run.sh"), "#!/bin/sh\n", { mode: 0o755 });
  await symlink("/etc/passwd", path.join(from, "out"));
  await symlink("src/deep/a.txt", path.join(from, "in"));
  await chmod(path.join(from, "src", "deep"), 0o555);
});
afterEach(async () => {
  await chmod(path.join(from, "src", "deep"), 0o755).catch(() => undefined);
  await rm(base, { recursive: true, force: true });
});

const stopped = (p: Promise<unknown>, why: CopyStopped["why"], message: RegExp) =>
  expect(p).rejects.toSatisfy((e: unknown) => e instanceof CopyStopped && e.why === why && message.test(e.message));

describe("copyTree", () => {
  it("copies files, folders and links as links, without .git; modes kept, folders owner-writable", async () => {
    expect(await copyTree(from, to, roomy())).toBe(to);
    expect((await readdir(to)).sort()).toEqual(["in", "out", "run.sh", "src"]);
    expect(await readFile(path.join(to, "src", "deep", "a.txt"), "utf8")).toBe("a\n");
    expect(await readlink(path.join(to, "out"))).toBe("/etc/passwd");
    expect(await readlink(path.join(to, "in"))).toBe("src/deep/a.txt");
    expect((await lstat(path.join(to, "run.sh"))).mode & 0o777).toBe(0o755);
    expect((await stat(path.join(to, "src", "deep"))).mode & 0o777).toBe(0o755);
  });

  it("refuses a sparse file larger than maxBytes before writing any of it", async () => {
    const huge = await open(path.join(from, "src", "huge.bin"), "w");
    await huge.truncate(64 * 1024 * 1024);
    await huge.close();
    await stopped(copyTree(from, to, roomy({ maxBytes: 16 * 1024 * 1024 })), "limit", /^over 16 MB to copy$/);
    await expect(lstat(path.join(to, "src", "huge.bin"))).rejects.toThrow(/ENOENT/);
  });

  it("stops at maxEntries files, folders and links", async () => {
    for (let i = 0; i < 20; i++) await writeFile(path.join(from, `f${i}`), "");
    await stopped(copyTree(from, to, roomy({ maxEntries: 10 })), "limit", /^over 10 files and folders to copy$/);
    expect((await readdir(to)).length).toBeLessThanOrEqual(10);
  });

  it("stops at the next entry once the signal is aborted, or the deadline has passed", async () => {
    const controller = new AbortController();
    controller.abort();
    await stopped(copyTree(from, to, roomy({ signal: controller.signal })), "cancelled", /cancelled/);
    expect(await readdir(to)).toEqual([]);
    await stopped(copyTree(from, path.join(base, "late"), roomy({ deadline: Date.now() - 1 })), "timed-out", /out of time/);
  });
});
