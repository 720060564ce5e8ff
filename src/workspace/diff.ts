/** Diffs of a pull request, read in the bare mirror (no working tree needed). */
import { git, type GitOptions } from "./git.js";

const inMirror = (mirror: string): GitOptions => ({ cwd: mirror, workspace: true });

/**
 * Revisions come from webhooks and stored job state: after `--end-of-options` git reads them as
 * revisions only, so one spelled like an option (`--output=/path`) is an unknown revision, never an option.
 */
const END = "--end-of-options";

/** Size above which a file's diff is not printed: it is reported as a binary change. */
export const DIFF_BIG_FILE = "8m";

/** The commit a pull request's changes start from: where its head left `base`. */
export async function mergeBase(mirror: string, base: string, head: string): Promise<string> {
  return (await git(["merge-base", END, base, head], inMirror(mirror))).trim();
}

/** Whether `ancestor` is in the history of `commit` (false after a force-push that dropped it). */
export async function isAncestor(mirror: string, ancestor: string, commit: string): Promise<boolean> {
  try {
    await git(["merge-base", "--is-ancestor", END, ancestor, commit], inMirror(mirror));
    return true;
  } catch {
    return false;
  }
}

/**
 * `git diff from to` as the review parser reads it: renames found, no colour, no external diff
 * program and no textconv filter (a repository's attributes must not run anything).
 */
export async function diffBetween(mirror: string, from: string, to: string): Promise<string> {
  // 256 MB: a pull request of generated files is big, and the file selection is what keeps the review small.
  // Files over DIFF_BIG_FILE count as binary ("Binary files … differ"): a pushed 300 MB text file
  // would otherwise be printed whole, overflow the buffer and fail the review.
  return git(["diff", "--no-color", "--no-ext-diff", "--no-textconv", "-M", END, from, to, "--"], {
    ...inMirror(mirror),
    maxBuffer: 256 * 1024 * 1024,
    config: [`core.bigFileThreshold=${DIFF_BIG_FILE}`],
  });
}

/**
 * The paths `head` changed since it left `base` (a rename as its old and its new path), for the
 * instructions that cover them. Trees only: no blob is read, so a partial mirror needs none.
 */
export async function changedPaths(mirror: string, base: string, head: string): Promise<string[]> {
  const from = await mergeBase(mirror, base, head);
  const out = await git(["diff-tree", "-r", "-z", "--name-only", "--no-renames", END, from, head, "--"], inMirror(mirror));
  return out.split("\0").filter((p) => p !== "");
}

/**
 * The commits of `from..to` that changed `path`, oldest first, on the ancestry path from `from`
 * (commits merged in from elsewhere are not among them). Trees only: no blob is read.
 */
export async function commitsTouching(mirror: string, from: string, to: string, path: string): Promise<string[]> {
  const out = await git(["rev-list", "--reverse", "--ancestry-path", END, `${from}..${to}`, "--", path], inMirror(mirror));
  return out.split("\n").filter((sha) => sha !== "");
}
