/** Real `git diff` output for review tests: two commits in a throwaway repository. */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "core.hooksPath=/dev/null", "-c", "commit.gpgsign=false", ...args], {
    cwd,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH,
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_AUTHOR_NAME: "Test",
      GIT_AUTHOR_EMAIL: "test@example.com",
      GIT_COMMITTER_NAME: "Test",
      GIT_COMMITTER_EMAIL: "test@example.com",
    },
  });
}

function write(root: string, files: Record<string, string | Buffer | null>): void {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(root, name);
    if (content === null) {
      rmSync(file, { force: true });
      continue;
    }
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/**
 * The diff a pull request from `base` to `head` shows, as crewbot asks git for it. `head` lists
 * changes only: a string or Buffer writes a file, null deletes one, `renames` moves before that.
 */
export function gitDiff(
  base: Record<string, string | Buffer>,
  head: Record<string, string | Buffer | null>,
  renames: Record<string, string> = {},
): string {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "crewbot-review-")));
  try {
    git(root, "init", "-q", "-b", "main");
    write(root, base);
    git(root, "add", "-A");
    git(root, "commit", "-q", "--allow-empty", "-m", "base");
    for (const [from, to] of Object.entries(renames)) {
      mkdirSync(path.dirname(path.join(root, to)), { recursive: true });
      git(root, "mv", from, to);
    }
    write(root, head);
    git(root, "add", "-A");
    git(root, "commit", "-q", "--allow-empty", "-m", "head");
    return git(root, "diff", "--no-color", "--no-ext-diff", "-M", "HEAD~1...HEAD");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** `n` numbered lines `prefix1`…`prefixN`, each ending in a newline. */
export function numbered(n: number, prefix = "line "): string {
  return Array.from({ length: n }, (_, i) => `${prefix}${i + 1}\n`).join("");
}
