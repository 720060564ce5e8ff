import { execFileSync } from "node:child_process";
import { mkdtemp, mkdir, realpath, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

export function gitSync(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH,
      HOME: cwd,
      GIT_AUTHOR_NAME: "Test",
      GIT_AUTHOR_EMAIL: "test@example.com",
      GIT_COMMITTER_NAME: "Test",
      GIT_COMMITTER_EMAIL: "test@example.com",
    },
  });
}

export async function tempDir(prefix = "crewbot-test-"): Promise<string> {
  return realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
}

/** A real git repository on disk with the given files committed on `main`. */
export async function makeRepo(files: Record<string, string>, dir?: string): Promise<string> {
  const root = dir ?? (await tempDir("crewbot-repo-"));
  await mkdir(root, { recursive: true });
  gitSync(root, "init", "-q", "-b", "main");
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), content);
  }
  gitSync(root, "add", "-A");
  gitSync(root, "commit", "-q", "-m", "initial");
  return root;
}
