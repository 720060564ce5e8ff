/**
 * A file as a commit holds it, read from the git objects of a repository (the mirror), never from
 * a working tree: what a pull request's lockfile says at its merge base and at its head, without
 * checking anything out or running anything of the repository.
 */
import { git, gitBuffer } from "./git.js";

/** A lockfile of a large monorepo is tens of megabytes; past this it is not read. */
export const MAX_TREE_FILE_BYTES = 64 * 1024 * 1024;

export class TreeFileTooLarge extends Error {
  override name = "TreeFileTooLarge";
}

/**
 * The text of the regular file at `filePath` in commit `sha`, or undefined when there is none
 * (nothing there, a directory, a symlink, a submodule). Throws TreeFileTooLarge over `maxBytes`.
 */
export async function fileAt(repoDir: string, sha: string, filePath: string, maxBytes = MAX_TREE_FILE_BYTES): Promise<string | undefined> {
  const opts = { cwd: repoDir, workspace: true };
  // `--literal-pathspecs`: a path is a name, never a pattern; `--end-of-options`: a sha is never an option.
  const listing = await git(["--literal-pathspecs", "ls-tree", "-z", "-l", "--end-of-options", sha, "--", filePath], opts);
  for (const entry of listing.split("\0")) {
    const m = /^(\d+) (\w+) ([0-9a-f]+) +(\d+|-)\t(.*)$/s.exec(entry);
    if (!m || m[5] !== filePath) continue;
    const [, mode, type, oid, size] = m;
    if (type !== "blob" || (mode !== "100644" && mode !== "100755")) return undefined;
    if (Number(size) > maxBytes) throw new TreeFileTooLarge(`${filePath} is ${size} bytes at ${sha.slice(0, 7)}, over ${maxBytes}`);
    return (await gitBuffer(["cat-file", "blob", oid!], { ...opts, maxBuffer: maxBytes + 1024 })).toString("utf8");
  }
  return undefined;
}
