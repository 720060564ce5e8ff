/**
 * crewbot's own reads of a checkout, and of folders made from the repository (the default
 * branch's files): thread context, instructions, definitions, skills, rules, repository features.
 * Everything of the repository is a stranger's input — a symlink in it may point at
 * `/proc/self/environ` or another job's folder — so these reads go through here, confined like
 * the agents' tools (tools/paths.ts): lexically, then again after realpath, then opened with
 * O_NOFOLLOW so a file swapped for a symlink after the check is not followed either.
 * `test/architecture/confined-reads.test.ts` keeps every other read of such a path out of src/.
 */
import { constants, type Dirent } from "node:fs";
import { open, readdir, realpath } from "node:fs/promises";
import path from "node:path";
import { hasGitSegment, isInside } from "../tools/paths.js";

/** Where a refusal is logged: the job's id with it, so an operator sees which job met the symlink. */
export interface ReadLog {
  jobId: string;
  warn(line: string): void;
}

export interface ConfinedReadOptions {
  /** Read at most this many bytes (`truncated` says when there was more). Default 1 MiB. */
  maxBytes?: number;
  /** Refuse any symlink on the way, even one that stays inside (definitions, skills, rules). */
  noSymlinks?: boolean;
  log?: ReadLog;
}

export type ConfinedRead =
  | { ok: true; text: string; truncated: boolean; size: number }
  /** `missing`: nothing there; `refused`: something there crewbot will not read (and logged). */
  | { ok: false; kind: "missing" | "refused"; reason: string };

export type ConfinedList = { ok: true; entries: Dirent[] } | { ok: false; kind: "missing" | "refused"; reason: string };

const DEFAULT_MAX_BYTES = 1024 * 1024;

/** What the model (or a note) is shown instead of a file crewbot would not read: never the content. */
export const notReadable = (reason: string): string => `(not readable: ${reason})`;

type Resolved = { abs: string } | { kind: "missing" | "refused"; reason: string };

/** The real path of `rel` below `root`, or why there is none crewbot may use. */
async function confine(root: string, rel: string, noSymlinks: boolean): Promise<Resolved> {
  if (rel.includes("\0")) return { kind: "refused", reason: "the path contains a NUL byte" };
  if (path.isAbsolute(rel)) return { kind: "refused", reason: "an absolute path is not a file of the checkout" };
  const realRoot = await realpath(root).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
    throw error;
  });
  if (realRoot === undefined) return { kind: "missing", reason: "not found" };
  const lexical = path.resolve(realRoot, rel);
  if (!isInside(realRoot, lexical)) return { kind: "refused", reason: "the path leaves the checkout" };
  if (hasGitSegment(path.relative(realRoot, lexical))) return { kind: "refused", reason: ".git is off limits" };
  let real: string;
  try {
    real = await realpath(lexical);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") return { kind: "refused", reason: "symlink loop" };
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing", reason: "not found" };
    throw error;
  }
  if (!isInside(realRoot, real)) return { kind: "refused", reason: "symlink leaves the checkout" };
  if (hasGitSegment(path.relative(realRoot, real))) return { kind: "refused", reason: "symlink into .git, which is off limits" };
  if (noSymlinks && real !== lexical) return { kind: "refused", reason: "is a symlink" };
  return { abs: real };
}

function refusal(root: string, rel: string, r: { kind: "missing" | "refused"; reason: string }, log: ReadLog | undefined) {
  if (r.kind === "refused") log?.warn(`job ${log.jobId}: refused to read ${JSON.stringify(rel)} of ${root}: ${r.reason}`);
  return { ok: false as const, kind: r.kind, reason: r.reason };
}

/** A regular file `rel` below `root` (a checkout, or a folder made from the repository), as UTF-8 text. */
export async function readConfined(root: string, rel: string, options: ConfinedReadOptions = {}): Promise<ConfinedRead> {
  const resolved = await confine(root, rel, options.noSymlinks ?? false);
  if (!("abs" in resolved)) return refusal(root, rel, resolved, options.log);
  // O_NONBLOCK: a FIFO planted in the repository cannot hang the job on open.
  const handle = await open(resolved.abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ELOOP") return { kind: "refused" as const, reason: "symlink (swapped in while reading)" };
    if (error.code === "ENOENT") return { kind: "missing" as const, reason: "not found" };
    throw error;
  });
  if ("kind" in handle) return refusal(root, rel, handle, options.log);
  try {
    const info = await handle.stat();
    if (!info.isFile()) return refusal(root, rel, { kind: "refused", reason: "not a regular file" }, options.log);
    const max = options.maxBytes ?? DEFAULT_MAX_BYTES;
    const buffer = Buffer.alloc(Math.min(max, info.size) + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const truncated = bytesRead > max;
    return { ok: true, text: buffer.subarray(0, Math.min(bytesRead, max)).toString("utf8"), truncated, size: info.size };
  } finally {
    await handle.close();
  }
}

/** The entries of a directory `rel` below `root` (`"."` for root itself), confined the same way. */
export async function listConfined(root: string, rel: string, options: Pick<ConfinedReadOptions, "noSymlinks" | "log"> = {}): Promise<ConfinedList> {
  const resolved = await confine(root, rel, options.noSymlinks ?? false);
  if (!("abs" in resolved)) return refusal(root, rel, resolved, options.log);
  try {
    return { ok: true, entries: await readdir(resolved.abs, { withFileTypes: true }) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOTDIR") return refusal(root, rel, { kind: "refused", reason: "not a directory" }, options.log);
    if (code === "ENOENT") return { ok: false, kind: "missing", reason: "not found" };
    throw error;
  }
}
