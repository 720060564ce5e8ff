/**
 * What a commit holds at some paths, for links to their lines: whether each is a regular text file
 * there and how many lines it has. Read from trees and blobs of the checkout's own repository
 * (its `.git`, never its working tree), so an agent's symlink or a file it could have changed
 * does not count: only what the commit holds.
 */
import { git, gitBuffer } from "./git.js";

/** GitHub does not show the lines of a larger file, so a link to one of its lines would go nowhere. */
export const MAX_LINKED_FILE_BYTES = 1024 * 1024;

export type BlobLines =
  | { kind: "text"; lines: number }
  /** No regular file there: nothing at that path, a directory, a symlink or a submodule. */
  | { kind: "missing" }
  | { kind: "binary" }
  | { kind: "too-large"; bytes: number };

/** `paths` (relative to the repository root) at `sha` in the repository at `repoDir`. */
export async function blobLines(repoDir: string, sha: string, paths: readonly string[]): Promise<Map<string, BlobLines>> {
  const found = new Map<string, BlobLines>(paths.map((p) => [p, { kind: "missing" }]));
  if (paths.length === 0) return found;
  const opts = { cwd: repoDir, workspace: true };
  // `--literal-pathspecs`: a path is a name, never a pattern.
  const listing = await git(["--literal-pathspecs", "ls-tree", "-z", "-l", "--end-of-options", sha, "--", ...paths], opts);
  for (const entry of listing.split("\0")) {
    const m = /^(\d+) (\w+) ([0-9a-f]+) +(\d+|-)\t(.*)$/s.exec(entry);
    if (!m || !found.has(m[5]!)) continue;
    const [, mode, type, oid, size, name] = m;
    // Regular files only: a symlink's "lines" are its target, a submodule has none.
    if (type !== "blob" || (mode !== "100644" && mode !== "100755")) continue;
    const bytes = Number(size);
    if (bytes > MAX_LINKED_FILE_BYTES) {
      found.set(name!, { kind: "too-large", bytes });
      continue;
    }
    found.set(name!, countLines(await gitBuffer(["cat-file", "blob", oid!], opts)));
  }
  return found;
}

/** Lines as GitHub numbers them: a last line without a newline counts; a file with a NUL (git's test) is binary. */
function countLines(blob: Buffer): BlobLines {
  if (blob.subarray(0, 8000).includes(0)) return { kind: "binary" };
  let lines = 0;
  for (let i = blob.indexOf(10); i !== -1; i = blob.indexOf(10, i + 1)) lines += 1;
  if (blob.length > 0 && blob[blob.length - 1] !== 10) lines += 1;
  return { kind: "text", lines };
}
