/**
 * What a commit holds at some paths, for links to their lines: whether each is a regular text file
 * there and how many lines it has. Read from trees and blobs of the checkout's own repository
 * (its `.git`, never its working tree), so an agent's symlink or a file it could have changed
 * does not count: only what the commit holds.
 */
import { blobBytes, regularBlobs } from "./tree-files.js";

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
  // Regular files only: a symlink's "lines" are its target, a submodule has none.
  for (const [name, blob] of await regularBlobs(repoDir, sha, paths)) {
    found.set(name, blob.bytes > MAX_LINKED_FILE_BYTES ? { kind: "too-large", bytes: blob.bytes } : countLines(await blobBytes(repoDir, blob.oid, MAX_LINKED_FILE_BYTES)));
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
