/**
 * What a checkout lacks because crewbot never fetches it: submodules (their directories stay
 * empty) and Git LFS content (files stay pointer files). Agents and readers are told, so nobody
 * mistakes an empty directory or a pointer for the real thing.
 */
import path from "node:path";
import { readConfined } from "./confined-read.js";
import { git } from "./git.js";

export interface RepoFeatures {
  /** Paths of submodules (gitlinks in the tree), sorted. */
  submodules: string[];
  /** `.gitattributes` files that route paths through `filter=lfs`. */
  lfsAttributes: string[];
  /** Files whose content is a Git LFS pointer, sorted (at most MAX_LISTED are named; `lfsPointerCount` counts all). */
  lfsPointers: string[];
  lfsPointerCount: number;
}

/** A pointer file is about 130 bytes; anything larger is content. */
const POINTER_MAX_BYTES = 1024;
const POINTER_START = "version https://git-lfs.github.com/spec/v1";
/** Small files looked into for pointers, at most: a repository of a million tiny files costs no more than this. */
const MAX_SMALL_FILES = 20_000;
export const MAX_LISTED = 10;

/** `git ls-tree -r -l -z HEAD` entries: mode, size and path. */
async function treeEntries(checkout: string): Promise<{ mode: string; size: number; path: string }[]> {
  const out = await git(["ls-tree", "-r", "-l", "-z", "HEAD"], { cwd: checkout, workspace: true, maxBuffer: 512 * 1024 * 1024 });
  const entries: { mode: string; size: number; path: string }[] = [];
  for (const line of out.split("\0")) {
    const match = /^(\d{6}) \w+ [0-9a-f]+ +(-|\d+)\t(.+)$/s.exec(line);
    if (match) entries.push({ mode: match[1]!, size: match[2] === "-" ? 0 : Number(match[2]), path: match[3]! });
  }
  return entries;
}

/** The first bytes of a regular file of the checkout (never through a symlink). */
async function head(checkout: string, file: string, bytes: number): Promise<string> {
  const read = await readConfined(checkout, file, { maxBytes: bytes, noSymlinks: true });
  return read.ok ? read.text : "";
}

/** Submodules and LFS files of the checked-out commit, read from its tree and its (small) files. */
export async function detectRepoFeatures(checkout: string): Promise<RepoFeatures> {
  const entries = await treeEntries(checkout);
  const submodules = entries.filter((e) => e.mode === "160000").map((e) => e.path).sort();
  const lfsAttributes: string[] = [];
  for (const e of entries) {
    if (path.posix.basename(e.path) !== ".gitattributes" || e.mode === "120000" || e.size > 1024 * 1024) continue;
    const text = await head(checkout, e.path, e.size);
    if (/^[^#\n]*\bfilter=lfs\b/m.test(text)) lfsAttributes.push(e.path);
  }
  const pointers: string[] = [];
  const small = entries.filter((e) => (e.mode === "100644" || e.mode === "100755") && e.size > 0 && e.size <= POINTER_MAX_BYTES).slice(0, MAX_SMALL_FILES);
  for (const e of small) {
    if ((await head(checkout, e.path, POINTER_START.length)) === POINTER_START) pointers.push(e.path);
  }
  pointers.sort();
  return { submodules, lfsAttributes: lfsAttributes.sort(), lfsPointers: pointers.slice(0, MAX_LISTED), lfsPointerCount: pointers.length };
}

const listed = (paths: string[], total = paths.length) => {
  const names = paths.slice(0, MAX_LISTED).map((p) => `\`${p}\``).join(", ");
  return total > MAX_LISTED ? `${names} and ${total - MAX_LISTED} more` : names;
};

/**
 * The lines that tell what the checkout lacks: one for submodules, one for LFS; none when the
 * repository uses neither. The same lines go to the agents (as context) and to the final comment.
 */
export function featureNotes(features: RepoFeatures): string[] {
  const notes: string[] = [];
  if (features.submodules.length > 0) {
    const n = features.submodules.length;
    notes.push(
      `This repository has ${n === 1 ? "a Git submodule" : `${n} Git submodules`} (${listed(features.submodules)}); crewbot does not fetch submodules, so ${n === 1 ? "its directory is" : "their directories are"} empty in the checkout`,
    );
  }
  if (features.lfsAttributes.length > 0 || features.lfsPointerCount > 0) {
    const where = features.lfsAttributes.length > 0 ? ` (\`filter=lfs\` in ${listed(features.lfsAttributes)})` : "";
    const pointers =
      features.lfsPointerCount > 0
        ? `, so ${features.lfsPointerCount === 1 ? "1 file is a pointer file" : `${features.lfsPointerCount} files are pointer files`} (${listed(features.lfsPointers, features.lfsPointerCount)}), not ${features.lfsPointerCount === 1 ? "its" : "their"} content`
        : "";
    notes.push(`This repository uses Git LFS${where}; crewbot does not fetch LFS content${pointers}`);
  }
  return notes;
}
