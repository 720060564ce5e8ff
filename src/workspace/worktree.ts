import { mkdir, realpath, rm } from "node:fs/promises";
import path from "node:path";
import { git, GitError } from "./git.js";

export interface Worktree {
  /** realpath of the new worktree; the agents work here. */
  path: string;
  /** The commit it started from. */
  base: string;
}

/** The top of the git work tree that holds `dir`, or a GitError saying it is not one. */
export async function repoTop(dir: string): Promise<string> {
  try {
    return (await git(["rev-parse", "--show-toplevel"], { cwd: dir })).trim();
  } catch (error) {
    throw new GitError(`${dir} is not a git repository (${(error as Error).message})`);
  }
}

/**
 * A fresh detached worktree of the repository's HEAD under `parentDir`, so a write chain never
 * touches the user's own working tree. Uncommitted changes of the user are not in it.
 */
export async function addWorktree(repo: string, parentDir: string, name: string): Promise<Worktree> {
  const base = (await git(["rev-parse", "--verify", "HEAD^{commit}"], { cwd: repo })).trim();
  await mkdir(parentDir, { recursive: true });
  const target = path.join(parentDir, name);
  await git(["worktree", "add", "--detach", target, base], { cwd: repo });
  return { path: await realpath(target), base };
}

/** Removes the worktree and git's record of it; safe to call twice. */
export async function removeWorktree(repo: string, worktree: string): Promise<void> {
  await git(["worktree", "remove", "--force", worktree], { cwd: repo }).catch(() => undefined);
  await rm(worktree, { recursive: true, force: true });
  await git(["worktree", "prune"], { cwd: repo }).catch(() => undefined);
}

/** Everything the agents changed against `base`, new files included, as a binary-safe patch. */
export async function diffAgainst(worktree: string, base: string): Promise<string> {
  // Intent-to-add makes new files show in the diff without staging their content.
  await git(["add", "--all", "--intent-to-add"], { cwd: worktree });
  return git(["diff", "--binary", base, "--"], { cwd: worktree });
}
