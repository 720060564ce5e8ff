import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
import { ToolError, type ToolContext } from "./types.js";

export type Access = "read" | "write";

export interface ResolvedPath {
  /** Real absolute path (symlinks resolved for the part that exists). Operate on this, never on the input. */
  abs: string;
  /** Relative to the checkout root ("." for the root); the absolute path when it lies in a read root. */
  rel: string;
  /** False when a write target (or some of its parent directories) does not exist yet. */
  exists: boolean;
  /** True when the path lies in one of ctx.readRoots rather than the checkout. */
  inReadRoot: boolean;
}

type PathContext = Pick<ToolContext, "root" | "readRoots" | "localDir">;

/** `local://<path>`: a file of the job's scratch space, outside the checkout and shared by its agents. */
export const LOCAL_PREFIX = "local://";

export function isLocalPath(p: string): boolean {
  return p.startsWith(LOCAL_PREFIX);
}

function refuse(p: string, why: string): never {
  throw new ToolError(`Refused path ${JSON.stringify(p)}: ${why}.`);
}

/** `.git` as any segment, case-insensitively: the repository's internals (hooks, config, credentials) are off limits. */
export function hasGitSegment(rel: string): boolean {
  return rel.split(/[\\/]/).some((s) => s.toLowerCase() === ".git");
}

/** True when `child` is `parent` or lies below it (both absolute and normalised). */
export function isInside(parent: string, child: string): boolean {
  const r = path.relative(parent, child);
  return r === "" || (r !== ".." && !r.startsWith(`..${path.sep}`) && !path.isAbsolute(r));
}

function errnoCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Resolves a path the model named. Checked twice: lexically (so the refusal is clear and
 * nothing outside is even touched) and again after realpath (so a symlink cannot smuggle
 * the operation out of the checkout or into .git). For writes to a new file, the nearest
 * existing ancestor is realpath'ed and checked; the missing tail is created under it, so
 * creating parents cannot pass through a symlink.
 */
export async function resolvePath(ctx: PathContext, p: string, opts: { access: Access }): Promise<ResolvedPath> {
  if (p.includes("\0")) refuse(p, "it contains a NUL byte");
  if (p.trim() === "") refuse(p, "it is empty (use \".\" for the checkout root)");
  if (p.startsWith("~")) refuse(p, "\"~\" is not expanded; use a path relative to the checkout root");
  if (isLocalPath(p)) return resolveLocal(ctx, p, opts.access);

  const root = ctx.root;
  let lexical: string;
  let readRoot: string | undefined;
  if (path.isAbsolute(p)) {
    lexical = path.resolve(p);
    if (opts.access === "read") readRoot = ctx.readRoots.map((r) => path.resolve(r)).find((r) => isInside(r, lexical));
    if (readRoot === undefined) {
      refuse(
        p,
        opts.access === "read"
          ? "absolute paths are only allowed inside the artifacts directory; use a path relative to the checkout root"
          : "absolute paths cannot be written; use a path relative to the checkout root",
      );
    }
  } else {
    lexical = path.resolve(root, p);
    if (!isInside(root, lexical)) refuse(p, "it leaves the checkout");
    if (hasGitSegment(path.relative(root, lexical))) refuse(p, ".git is off limits");
  }

  const { real, exists } = await realOrNearest(p, lexical, opts.access);
  if (readRoot !== undefined) {
    const realRoot = await realpath(readRoot).catch(() => readRoot as string);
    if (!isInside(realRoot, real)) refuse(p, "it is a symlink that leads out of the artifacts directory");
    return { abs: real, rel: real, exists, inReadRoot: true };
  }
  if (!isInside(root, real)) refuse(p, "it goes through a symlink that points outside the checkout");
  const rel = path.relative(root, real) || ".";
  if (hasGitSegment(rel)) refuse(p, "it goes through a symlink into .git, which is off limits");
  return { abs: real, rel, exists, inReadRoot: false };
}

/** A `local://` path: confined to the scratch space lexically and again after realpath, like the checkout. */
async function resolveLocal(ctx: PathContext, p: string, access: Access): Promise<ResolvedPath> {
  if (ctx.localDir === undefined) refuse(p, "this run has no local:// scratch space");
  const rest = p.slice(LOCAL_PREFIX.length);
  if (path.isAbsolute(rest) || rest.startsWith("~")) refuse(p, "a local:// path is relative to the scratch space (local://notes.md)");
  const dir = path.resolve(ctx.localDir);
  const lexical = path.resolve(dir, rest === "" ? "." : rest);
  if (!isInside(dir, lexical)) refuse(p, "it leaves the local:// scratch space");
  const { real, exists } = await realOrNearest(p, lexical, access);
  const realDir = await realpath(dir).catch(() => dir);
  if (!isInside(realDir, real)) refuse(p, "it goes through a symlink that leads out of the local:// scratch space");
  return { abs: real, rel: localName(realDir, real), exists, inReadRoot: true };
}

/** How a scratch file is shown to the model: `local://a/b.md` (`local://` for the space itself). */
export function localName(localDir: string, abs: string): string {
  return `${LOCAL_PREFIX}${path.relative(localDir, abs).split(path.sep).join("/")}`;
}

/** realpath of the path; for a missing write target, realpath of its nearest existing ancestor plus the missing tail. */
async function realOrNearest(p: string, lexical: string, access: Access): Promise<{ real: string; exists: boolean }> {
  try {
    return { real: await realpath(lexical), exists: true };
  } catch (err) {
    if (errnoCode(err) === "ELOOP") refuse(p, "it is a symlink loop");
    if (errnoCode(err) !== "ENOENT" && errnoCode(err) !== "ENOTDIR") throw err;
  }
  if (access === "read") throw new ToolError(`Not found: ${p}`);
  const tail: string[] = [];
  let cur = lexical;
  for (;;) {
    // Something that lstat sees but realpath does not is a dangling symlink: writing would follow it.
    const st = await lstat(cur).catch(() => undefined);
    if (st?.isSymbolicLink()) refuse(p, "it goes through a symlink whose target does not exist");
    tail.unshift(path.basename(cur));
    cur = path.dirname(cur);
    try {
      const real = await realpath(cur);
      return { real: path.join(real, ...tail), exists: false };
    } catch (err) {
      if (errnoCode(err) !== "ENOENT") throw err;
    }
  }
}

/**
 * Glob patterns (find, grep's glob) are matched below a directory inside the checkout;
 * one that names a parent or an absolute location would crawl outside it.
 */
export function assertSafeGlob(pattern: string, what = "pattern"): void {
  const quoted = JSON.stringify(pattern);
  if (pattern.includes("\0")) throw new ToolError(`Refused ${what} ${quoted}: it contains a NUL byte.`);
  const body = pattern.startsWith("!") ? pattern.slice(1) : pattern;
  if (path.isAbsolute(body) || body.startsWith("~")) {
    throw new ToolError(`Refused ${what} ${quoted}: it must be relative to the search directory (use \`path\` to choose the directory).`);
  }
  // Any "..", even inside braces like {..,a}, could expand to a parent directory.
  if (body.includes("..")) throw new ToolError(`Refused ${what} ${quoted}: ".." is not allowed in patterns.`);
}
