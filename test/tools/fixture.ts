import { createHash } from "node:crypto";
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, realpath, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Mode, SandboxInfo, ToolContext } from "../../src/tools/types.js";

/**
 * A job's data dir in a temp dir:
 *   base/data/checkout   the checkout (ctx.root), with .git and hostile symlinks
 *   base/data/artifacts  ctx.artifactsDir (also the only read root)
 *   base/data/home       ctx.scratchDir
 *   base/data/secret.txt a file next to the checkout, in no bind and no root
 *   base/outside/        files the symlinks point at
 */
export interface Workspace {
  base: string;
  root: string;
  artifacts: string;
  scratch: string;
  dataSecret: string;
  outside: string;
  ctx(mode: Mode, extra?: Partial<ToolContext>): ToolContext;
  cleanup(): Promise<void>;
}

export const NO_SANDBOX: SandboxInfo = { available: false, reason: "disabled in this test" };

export async function makeWorkspace(sandbox: SandboxInfo = NO_SANDBOX): Promise<Workspace> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), "crewbot-tools-")));
  const data = path.join(base, "data");
  const root = path.join(data, "checkout");
  const artifacts = path.join(data, "artifacts");
  const scratch = path.join(data, "home");
  const outside = path.join(base, "outside");
  const dataSecret = path.join(data, "secret.txt");
  for (const d of [root, artifacts, scratch, outside, path.join(outside, "dir")]) await mkdir(d, { recursive: true });

  await writeFile(dataSecret, "DATA-DIR-SECRET\n");
  await writeFile(path.join(outside, "secret.txt"), "OUTSIDE-SECRET needle\n");
  await writeFile(path.join(outside, "dir", "file.txt"), "OUTSIDE-DIR-SECRET needle\n");
  await writeFile(path.join(artifacts, "out.log"), "artifact line 1\nartifact line 2\n");

  await mkdir(path.join(root, ".git", "hooks"), { recursive: true });
  await writeFile(path.join(root, ".git", "config"), "[core]\n\ttoken = GIT-SECRET needle\n");
  await mkdir(path.join(root, "src", "lib"), { recursive: true });
  await writeFile(path.join(root, "src", "a.ts"), "export const a = 1; // needle\nexport const b = 2;\n");
  await writeFile(path.join(root, "src", "lib", "b.ts"), "import { a } from '../a';\nconsole.log(a); // Needle\n");
  await writeFile(path.join(root, "README.md"), "# Fixture\n\nSome needle text.\n");

  await symlink(path.join(outside, "secret.txt"), path.join(root, "link-file-out"));
  await symlink(path.join(outside, "dir"), path.join(root, "link-dir-out"));
  await symlink(".git", path.join(root, "link-git"));
  await symlink(".git/config", path.join(root, "link-git-config"));
  await symlink("src/a.ts", path.join(root, "link-in"));
  await symlink(path.join(outside, "missing.txt"), path.join(root, "dangling"));
  await symlink(path.join(outside, "secret.txt"), path.join(artifacts, "escape.log"));

  return {
    base,
    root,
    artifacts,
    scratch,
    dataSecret,
    outside,
    ctx: (mode, extra = {}) => ({
      root,
      mode,
      artifactsDir: artifacts,
      readRoots: [artifacts],
      scratchDir: scratch,
      signal: new AbortController().signal,
      sandbox,
      network: false,
      envAllowlist: {},
      ...extra,
    }),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

/** Every file under `dir` (names, modes, contents; symlinks as their link text), hashed: what "untouched" means. */
export async function treeHash(dir: string): Promise<string> {
  const hash = createHash("sha256");
  const walk = async (rel: string): Promise<void> => {
    for (const e of (await readdir(path.join(dir, rel), { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(rel, e.name);
      hash.update(`${p}\0${(await lstat(path.join(dir, p))).mode}\0`);
      if (e.isSymbolicLink()) hash.update(await readlink(path.join(dir, p)));
      else if (e.isDirectory()) await walk(p);
      else hash.update(await readFile(path.join(dir, p)));
    }
  };
  await walk("");
  return hash.digest("hex");
}
