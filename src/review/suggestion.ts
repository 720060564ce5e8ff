/**
 * Committable suggestions (DESIGN.md §2): a finding's replacement lines as a ```suggestion block
 * GitHub offers to commit, or — where GitHub could not apply it — the same fix in prose. The
 * replacement keeps the file's indentation and line endings, since a click commits it verbatim.
 */
import type { DiffFile } from "./diff-lines.js";

const FENCE_OPEN = /^\s*(`{3,}|~{3,})\s*suggestion\s*$/;

/** The finding's text without its first ```suggestion block (the block goes elsewhere). */
export function withoutSuggestionBlock(text: string): string {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => FENCE_OPEN.test(l));
  if (start === -1) return text;
  const open = FENCE_OPEN.exec(lines[start]!)![1]!;
  for (let i = start + 1; i < lines.length; i++) {
    const close = /^\s*(`{3,}|~{3,})\s*$/.exec(lines[i]!);
    if (close && close[1]![0] === open[0] && close[1]!.length >= open.length) {
      return [...lines.slice(0, start), ...lines.slice(i + 1)].join("\n").replace(/\n{3,}/g, "\n\n").trim();
    }
  }
  return text; // an unclosed block was never taken as a suggestion
}

/** A backtick fence longer than any run of backticks in `content` (at least three). */
export function fenceFor(content: string): string {
  // A loop, not Math.max(...runs): a long text has more runs than a call's arguments can hold.
  let longest = 0;
  for (const run of content.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  return "`".repeat(Math.max(3, longest + 1));
}

function leadingSpace(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

/**
 * The replacement as it goes into the file: one trailing newline dropped (the block ends the
 * last line), and re-indented to the original's indentation when the reviewer gave it flush left
 * while every original line was indented (a common slip; a click would commit it unindented).
 */
export function fitReplacement(replacement: string, original: readonly string[]): string[] {
  const lines = replacement.replace(/\r\n?/g, "\n").replace(/\n$/, "").split("\n");
  const filled = (ls: readonly string[]) => ls.filter((l) => l.trim() !== "");
  const originalIndent = filled(original).map(leadingSpace);
  const given = filled(lines);
  if (originalIndent.length === 0 || given.length === 0) return lines;
  const base = originalIndent.reduce((a, b) => (b.length < a.length ? b : a));
  if (base !== "" && given.every((l) => leadingSpace(l) === "")) return lines.map((l) => (l.trim() === "" ? l : base + l));
  return lines;
}

/** The original lines `from..to` on the RIGHT side, and whether the file ends them with CRLF. */
export function rightLines(file: DiffFile, from: number, to: number): { lines: string[]; crlf: boolean } | undefined {
  const found = new Map<number, { text: string; crlf: boolean }>();
  for (const hunk of file.hunks) {
    for (const l of hunk.lines) if (l.newLine !== undefined && l.newLine >= from && l.newLine <= to) found.set(l.newLine, { text: l.text, crlf: l.crlf === true });
  }
  const lines: string[] = [];
  let crlf = false;
  for (let n = from; n <= to; n++) {
    const line = found.get(n);
    if (!line) return undefined;
    lines.push(line.text);
    crlf ||= line.crlf;
  }
  return { lines, crlf };
}

/** The committable block: its content ends each line as the file does (CRLF files keep CRLF). */
export function suggestionBlock(replacement: readonly string[], crlf: boolean): string {
  const eol = crlf ? "\r\n" : "\n";
  const content = replacement.join(eol);
  const fence = fenceFor(content);
  return `${fence}suggestion${eol}${content}${content === "" ? "" : eol}${fence}`;
}

/** The fix where it cannot be committed with a click: said in words, with a plain code block. */
export function proseFix(replacement: string, from: number, to: number): string {
  const content = replacement.replace(/\r\n?/g, "\n").replace(/\n$/, "");
  const fence = fenceFor(content);
  const where = to > from ? `lines ${from}–${to}` : `line ${from}`;
  if (content === "") return `Suggested fix: delete ${where}.`;
  return `Suggested fix: replace ${where} with:\n\n${fence}\n${content}\n${fence}`;
}
