/**
 * A pull request's unified diff, as printed by `git diff --no-color --no-ext-diff -M base...head`,
 * and the positions GitHub accepts for review comments on it (DESIGN.md §2: inline comments sit
 * only on lines that are part of the diff).
 *
 * `parsePatch` from `diff` understands git's headers (renames, new/deleted files, binary, quoted
 * paths); what it leaves to us: `a/`/`b/` prefixes and `/dev/null`, `GIT binary patch` bodies,
 * line numbering, and `\ No newline at end of file`.
 */
import { parsePatch, type StructuredPatch } from "diff";

export type Side = "LEFT" | "RIGHT";
export type FileStatus = "added" | "deleted" | "modified" | "renamed";

export interface DiffLine {
  kind: "add" | "del" | "context";
  /** Old-file number: set for deleted and context lines. */
  oldLine?: number;
  /** New-file number: set for added and context lines. */
  newLine?: number;
  /** The line without its prefix (and without a trailing `\r`). */
  text: string;
  /** Followed by `\ No newline at end of file`. */
  noNewline?: boolean;
  /** The line ended with `\r\n` in the file (a CRLF file): suggestions keep it. */
  crlf?: boolean;
}

export interface DiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
}

export interface DiffFile {
  /** The new path; for a deleted file, the path it had. */
  path: string;
  /** Set when it differs from `path` (renames). */
  oldPath?: string;
  status: FileStatus;
  binary: boolean;
  additions: number;
  deletions: number;
  hunks: DiffHunk[];
}

/** A diff `parsePatch` (or we) could not make sense of; names the file when known. */
export class DiffParseError extends Error {
  override name = "DiffParseError";
}

/** `a/src/x.ts` → `src/x.ts`; `/dev/null` → undefined. */
function stripPrefix(name: string | undefined, prefix: "a/" | "b/"): string | undefined {
  if (name === undefined || name === "/dev/null") return undefined;
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

function numberLines(raw: StructuredPatch["hunks"][number]): DiffHunk {
  const lines: DiffLine[] = [];
  let oldLine = raw.oldStart;
  let newLine = raw.newStart;
  for (const l of raw.lines) {
    const op = l[0] ?? " "; // parsePatch reads an empty line inside a hunk as an empty context line
    const text = l.slice(1).replace(/\r$/, "");
    if (op === "\\") {
      const last = lines.at(-1);
      if (last) last.noNewline = true;
    } else {
      const line: DiffLine =
        op === "+" ? { kind: "add", newLine: newLine++, text } : op === "-" ? { kind: "del", oldLine: oldLine++, text } : { kind: "context", oldLine: oldLine++, newLine: newLine++, text };
      if (l.endsWith("\r")) line.crlf = true;
      lines.push(line);
    }
  }
  // jsdiff counts an empty side from the line after; keep git's numbers (`@@ -0,0 +1,2 @@`).
  const start = (n: number, count: number) => (count === 0 ? n - 1 : n);
  return { oldStart: start(raw.oldStart, raw.oldLines), oldLines: raw.oldLines, newStart: start(raw.newStart, raw.newLines), newLines: raw.newLines, lines };
}

function toFile(patch: StructuredPatch, chunk: string[]): DiffFile {
  const oldName = stripPrefix(patch.oldFileName, "a/");
  const newName = stripPrefix(patch.newFileName, "b/");
  const path = newName ?? oldName;
  if (path === undefined) throw new DiffParseError(`a file without a name: ${chunk[0] ?? ""}`);
  let status: FileStatus = "modified";
  if (patch.isCreate || oldName === undefined) status = "added";
  else if (patch.isDelete || newName === undefined) status = "deleted";
  else if (patch.isRename || oldName !== newName) status = "renamed";
  // `git diff --binary` prints a `GIT binary patch` body that parsePatch silently skips.
  const binary = patch.isBinary === true || chunk.some((l) => l === "GIT binary patch");
  const hunks = patch.hunks.map(numberLines);
  let additions = 0;
  let deletions = 0;
  for (const h of hunks) {
    for (const l of h.lines) {
      if (l.kind === "add") additions++;
      else if (l.kind === "del") deletions++;
    }
  }
  const file: DiffFile = { path, status, binary, additions, deletions, hunks };
  if (oldName !== undefined && oldName !== path) file.oldPath = oldName;
  return file;
}

/**
 * Parses a whole `git diff`. Each `diff --git` section is parsed on its own (a hunk line never
 * starts with `diff`, so the split is safe), which keeps one broken section from shifting the rest
 * and lets us look at its raw header lines.
 */
export function parseDiff(text: string): DiffFile[] {
  const lines = text.split("\n");
  const chunks: string[][] = [];
  for (const line of lines) {
    if (line.startsWith("diff --git ") || chunks.length === 0) chunks.push([]);
    chunks.at(-1)!.push(line);
  }
  const files: DiffFile[] = [];
  for (const chunk of chunks) {
    if (!chunk.some((l) => l.startsWith("diff --git "))) {
      if (chunk.every((l) => l.trim() === "")) continue;
      throw new DiffParseError(`text before the first "diff --git" header: ${chunk[0]}`);
    }
    let patches: StructuredPatch[];
    try {
      patches = parsePatch(chunk.join("\n"));
    } catch (err) {
      throw new DiffParseError(`${chunk[0]}: ${(err as Error).message}`);
    }
    for (const patch of patches) files.push(toFile(patch, chunk));
  }
  return files;
}

/** Key of one commentable position; see `commentablePositions`. */
export function positionKey(path: string, side: Side, line: number): string {
  return `${side}:${line}:${path}`;
}

/** The numbers a line has on a side: new numbering on RIGHT, old on LEFT. */
function lineOn(line: DiffLine, side: Side): number | undefined {
  return side === "RIGHT" ? line.newLine : line.oldLine;
}

/**
 * Every `(path, side, line)` GitHub accepts for a review comment: added and context lines on
 * RIGHT (new numbering), deleted and context lines on LEFT (old numbering). Lines between hunks
 * are not part of the diff and are refused (422). Binary files have none.
 */
export function commentablePositions(files: readonly DiffFile[]): Set<string> {
  const keys = new Set<string>();
  for (const file of files) {
    for (const hunk of file.hunks) {
      for (const line of hunk.lines) {
        for (const side of ["LEFT", "RIGHT"] as const) {
          const n = lineOn(line, side);
          if (n !== undefined) keys.add(positionKey(file.path, side, n));
        }
      }
    }
  }
  return keys;
}

/**
 * The index of the hunk holding `line` on `side`, or undefined when that line is not in the
 * diff. A multi-line comment is accepted only when both ends give the same hunk.
 */
export function hunkOf(file: DiffFile, side: Side, line: number): number | undefined {
  for (const [i, hunk] of file.hunks.entries()) {
    if (hunk.lines.some((l) => lineOn(l, side) === line)) return i;
  }
  return undefined;
}

/** The text of a line on one side, when that line is in the diff. */
export function lineText(file: DiffFile, side: Side, line: number): string | undefined {
  for (const hunk of file.hunks) {
    for (const l of hunk.lines) if (lineOn(l, side) === line) return l.text;
  }
  return undefined;
}
