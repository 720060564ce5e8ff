/**
 * Adversarial suite: crewbot's own reads of a checkout (workspace/confined-read.ts). A repository
 * plants links to host files, into `.git`, loops, FIFOs and dot-dot paths; the reader gives a
 * reason — never the host's content — and logs each refusal with the job's id.
 */
import { execFileSync } from "node:child_process";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readRepoInstructions } from "../../src/context/repo-instructions.js";
import { listConfined, notReadable, readConfined } from "../../src/workspace/confined-read.js";
import { tempDir } from "../helpers/git-repo.js";

const CANARY = "host-canary-7f3a";

async function hostileCheckout() {
  const host = await tempDir("crewbot-host-");
  await writeFile(path.join(host, "secret.txt"), `${CANARY}\n`);
  const root = await tempDir("crewbot-checkout-");
  await writeFile(path.join(root, "index.js"), "console.log(1);\n");
  await mkdir(path.join(root, ".git"));
  await writeFile(path.join(root, ".git", "config"), `[remote]\n url = ${CANARY}\n`);
  await symlink(path.join(host, "secret.txt"), path.join(root, "to-host.js"));
  await symlink("/proc/self/environ", path.join(root, "environ.js"));
  await symlink(".git/config", path.join(root, "to-git.js"));
  await symlink("index.js", path.join(root, "alias.js"));
  await symlink("loop-b", path.join(root, "loop-a"));
  await symlink("loop-a", path.join(root, "loop-b"));
  await symlink(host, path.join(root, "host-dir"));
  await symlink(host, path.join(root, "AGENTS.md"));
  await symlink(path.join(host, "secret.txt"), path.join(root, "CLAUDE.md"));
  execFileSync("mkfifo", [path.join(root, "pipe.js")]);
  return { root, host };
}

function recorder() {
  const lines: string[] = [];
  return { lines, log: { jobId: "job-42", warn: (line: string) => lines.push(line) } };
}

describe("the confined reader", () => {
  it("reads the checkout's own files, and a link that stays inside it", async () => {
    const { root } = await hostileCheckout();
    expect(await readConfined(root, "index.js")).toEqual({ ok: true, text: "console.log(1);\n", truncated: false, size: 16 });
    expect(await readConfined(root, "alias.js")).toMatchObject({ ok: true, text: "console.log(1);\n" });
    expect(await readConfined(root, "alias.js", { noSymlinks: true })).toEqual({ ok: false, kind: "refused", reason: "is a symlink" });
    expect(await readConfined(root, "index.js", { maxBytes: 7 })).toEqual({ ok: true, text: "console", truncated: true, size: 16 });
  });

  it.each([
    ["to-host.js", "symlink leaves the checkout"],
    ["environ.js", "symlink leaves the checkout"],
    ["to-git.js", "symlink into .git, which is off limits"],
    [".git/config", ".git/config is off limits"],
    ["src/../../x", "the path leaves the checkout"],
    ["/etc/passwd", "an absolute path is not a file of the checkout"],
    ["loop-a", "symlink loop"],
    ["pipe.js", "not a regular file"],
    ["host-dir/secret.txt", "symlink leaves the checkout"],
  ])("refuses %s (%s), logged with the job id, never the content", async (rel, reason) => {
    const { root } = await hostileCheckout();
    const { lines, log } = recorder();
    const read = await readConfined(root, rel, { log });
    const expected = reason === ".git/config is off limits" ? ".git is off limits" : reason;
    expect(read).toEqual({ ok: false, kind: "refused", reason: expected });
    expect(JSON.stringify(read)).not.toContain(CANARY);
    expect(lines).toEqual([`job job-42: refused to read ${JSON.stringify(rel)} of ${root}: ${expected}`]);
    expect(notReadable(expected)).toBe(`(not readable: ${expected})`);
  });

  it("a missing file is missing, not a refusal, and not logged", async () => {
    const { root } = await hostileCheckout();
    const { lines, log } = recorder();
    expect(await readConfined(root, "nope.js", { log })).toEqual({ ok: false, kind: "missing", reason: "not found" });
    expect(lines).toEqual([]);
  });

  it("lists no folder a link leads out to", async () => {
    const { root } = await hostileCheckout();
    const { lines, log } = recorder();
    expect(await listConfined(root, "host-dir", { log })).toEqual({ ok: false, kind: "refused", reason: "symlink leaves the checkout" });
    expect(lines).toHaveLength(1);
    const own = await listConfined(root, ".");
    expect(own.ok && own.entries.map((e) => e.name).sort()).toContain("index.js");
  });

  it("repository instructions linked to host files are skipped, and the refusal is logged with the job id", async () => {
    const { root } = await hostileCheckout();
    const { lines, log } = recorder();
    expect(await readRepoInstructions(root, log)).toEqual([]);
    expect(lines).toEqual([
      `job job-42: refused to read "AGENTS.md" of ${root}: symlink leaves the checkout`,
      `job job-42: refused to read "CLAUDE.md" of ${root}: symlink leaves the checkout`,
    ]);
  });
});
