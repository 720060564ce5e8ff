/**
 * Whether a finding's committable suggestion was applied: the kept finding remembers the
 * suggestion as a print (its lines, spacing aside, hashed), and the diff from the commit it was
 * posted on to a later head shows whether those lines now hold it. Pure.
 */
import { createHash } from "node:crypto";
import type { DiffFile } from "./diff-lines.js";
import { normaliseCode } from "./fingerprint.js";
import type { SuggestionPrint } from "./review-store.js";

/** The replacement's lines as compared: line endings and one trailing newline dropped, spacing collapsed. */
function codeLines(text: string): string[] {
  const plain = text.replace(/\r\n?/g, "\n").replace(/\n$/, "");
  return plain === "" ? [] : plain.split("\n").map((l) => normaliseCode(l));
}

const hashOf = (lines: readonly string[]): string => createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 16);

export function suggestionPrint(text: string): SuggestionPrint {
  const lines = codeLines(text);
  return { lines: lines.length, hash: hashOf(lines) };
}

/**
 * Whether the diff applied the suggestion to lines `from..to` of `path` (as they were on the
 * diff's old side): some of them are deleted or replaced, and the new side of a hunk that changes
 * them holds the suggestion's lines in a row, one of them added at least. An empty suggestion (a
 * deletion) is applied when every one of the lines is deleted.
 */
export function suggestionApplied(files: readonly DiffFile[], path: string, from: number, to: number, print: SuggestionPrint): boolean {
  const file = files.find((f) => (f.oldPath ?? f.path) === path);
  if (!file || file.status === "deleted") return false;
  const inRange = (n: number | undefined) => n !== undefined && n >= from && n <= to;
  const hunks = file.hunks.filter((h) => h.lines.some((l) => l.kind === "del" && inRange(l.oldLine)));
  if (hunks.length === 0) return false;
  if (print.lines === 0) {
    const deleted = new Set(hunks.flatMap((h) => h.lines.flatMap((l) => (l.kind === "del" && inRange(l.oldLine) ? [l.oldLine!] : []))));
    return deleted.size === to - from + 1;
  }
  for (const hunk of hunks) {
    const side = hunk.lines.filter((l) => l.kind !== "del");
    for (let i = 0; i + print.lines <= side.length; i++) {
      const window = side.slice(i, i + print.lines);
      if (window.some((l) => l.kind === "add") && hashOf(window.map((l) => normaliseCode(l.text))) === print.hash) return true;
    }
  }
  return false;
}
