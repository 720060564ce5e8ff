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
  constructor(
    message: string,
    /** The blob's size in bytes. */
    readonly bytes: number,
  ) {
    super(message);
  }
}

/** A regular file's blob in a commit: its object id and size. */
export interface RegularBlob {
  oid: string;
  bytes: number;
}

/**
 * The regular files among `paths` at commit `sha` (one `ls-tree`): a path that is missing, a
 * directory, a symlink (its "content" is its target) or a submodule is not in the map.
 */
export async function regularBlobs(repoDir: string, sha: string, paths: readonly string[]): Promise<Map<string, RegularBlob>> {
  const found = new Map<string, RegularBlob>();
  if (paths.length === 0) return found;
  const wanted = new Set(paths);
  // `--literal-pathspecs`: a path is a name, never a pattern; `--end-of-options`: a sha is never an option.
  const listing = await git(["--literal-pathspecs", "ls-tree", "-z", "-l", "--end-of-options", sha, "--", ...paths], { cwd: repoDir, workspace: true });
  for (const entry of listing.split("\0")) {
    const m = /^(\d+) (\w+) ([0-9a-f]+) +(\d+|-)\t(.*)$/s.exec(entry);
    if (!m || !wanted.has(m[5]!)) continue;
    const [, mode, type, oid, size, name] = m;
    if (type === "blob" && (mode === "100644" || mode === "100755")) found.set(name!, { oid: oid!, bytes: Number(size) });
  }
  return found;
}

/** A blob's bytes. */
export function blobBytes(repoDir: string, oid: string, maxBytes: number): Promise<Buffer> {
  return gitBuffer(["cat-file", "blob", oid], { cwd: repoDir, workspace: true, maxBuffer: maxBytes + 1024 });
}

/**
 * The text of the regular file at `filePath` in commit `sha`, or undefined when there is none
 * (nothing there, a directory, a symlink, a submodule). Throws TreeFileTooLarge over `maxBytes`.
 */
export async function fileAt(repoDir: string, sha: string, filePath: string, maxBytes = MAX_TREE_FILE_BYTES): Promise<string | undefined> {
  const blob = (await regularBlobs(repoDir, sha, [filePath])).get(filePath);
  if (!blob) return undefined;
  if (blob.bytes > maxBytes) throw new TreeFileTooLarge(`${filePath} is ${blob.bytes} bytes at ${sha.slice(0, 7)}, over ${maxBytes}`, blob.bytes);
  return (await blobBytes(repoDir, blob.oid, maxBytes)).toString("utf8");
}
