/**
 * A copy of a tree within bounds: at most `maxBytes` of file data and `maxEntries` files, folders
 * and links, stopped by the signal or the deadline between any two entries. A pull request's tree
 * is a stranger's: a sparse 100 GB file or a million empty ones must not fill the disk or outlast
 * the proof. What was copied before a stop is left for the caller to remove.
 */
import { constants } from "node:fs";
import { chmod, copyFile, lstat, mkdir, opendir, readlink, realpath, symlink } from "node:fs/promises";
import path from "node:path";

export interface CopyBounds {
  signal: AbortSignal;
  /** Epoch ms. */
  deadline: number;
  maxBytes: number;
  maxEntries: number;
}

/** Why a copy stopped: `limit` (the tree is over a cap), `cancelled` (the signal) or `timed-out` (the deadline). */
export class CopyStopped extends Error {
  constructor(
    readonly why: "limit" | "cancelled" | "timed-out",
    message: string,
  ) {
    super(message);
    this.name = "CopyStopped";
  }
}

const MB = 1024 * 1024;

interface Walk {
  bounds: CopyBounds;
  /** The source path never copied (the checkout's .git). */
  skip: string;
  bytes: number;
  entries: number;
}

/**
 * Copies `from` into the new folder `to` without `from/.git`: symlinks copied as links (never
 * followed), files reflinked where the filesystem can, other kinds (sockets, fifos, devices)
 * left out. Folders keep their mode, owner-writable so the copy can be removed. Resolves to `to`'s realpath.
 */
export async function copyTree(from: string, to: string, bounds: CopyBounds): Promise<string> {
  await copyDir(from, to, { bounds, skip: path.join(from, ".git"), bytes: 0, entries: 0 });
  return realpath(to);
}

async function copyDir(from: string, to: string, walk: Walk): Promise<void> {
  const mode = (await lstat(from)).mode;
  await mkdir(to, { mode: 0o700 });
  // Read as it goes: a folder of a million names is never held in memory at once.
  for await (const entry of await opendir(from)) {
    const source = path.join(from, entry.name);
    if (source === walk.skip) continue;
    await copyEntry(source, path.join(to, entry.name), walk);
  }
  await chmod(to, (mode & 0o7777) | 0o700);
}

async function copyEntry(source: string, target: string, walk: Walk): Promise<void> {
  stopIfDue(walk.bounds);
  if (++walk.entries > walk.bounds.maxEntries) throw new CopyStopped("limit", `over ${walk.bounds.maxEntries.toLocaleString("en")} files and folders to copy`);
  const st = await lstat(source);
  if (st.isDirectory()) return copyDir(source, target, walk);
  if (st.isSymbolicLink()) return symlink(await readlink(source), target);
  if (!st.isFile()) return;
  // The size a file claims (a sparse one's too) counts before a byte is written.
  walk.bytes += st.size;
  if (walk.bytes > walk.bounds.maxBytes) throw new CopyStopped("limit", `over ${Math.round(walk.bounds.maxBytes / MB)} MB to copy`);
  await copyFile(source, target, constants.COPYFILE_FICLONE);
}

function stopIfDue(bounds: CopyBounds): void {
  if (bounds.signal.aborted) throw new CopyStopped("cancelled", "cancelled");
  if (Date.now() >= bounds.deadline) throw new CopyStopped("timed-out", "out of time");
}
