/**
 * Line-level markdown helpers shared by the chain file parser and the output parsers
 * (plan, review, DONE markers). Deliberately small: agents write simple markdown, and the
 * parsers only need fences, headers, list items and emphasis — not a full CommonMark parser.
 */

/** Width of the leading whitespace (a tab counts as 4, as in CommonMark). */
export function indentOf(line: string): number {
  let width = 0;
  for (const ch of line) {
    if (ch === " ") width += 1;
    else if (ch === "\t") width += 4 - (width % 4);
    else break;
  }
  return width;
}

export function isBlank(line: string): boolean {
  return line.trim() === "";
}

/** Removes up to `width` columns of leading whitespace. */
export function dedent(line: string, width: number): string {
  let col = 0;
  let i = 0;
  while (i < line.length && col < width) {
    const ch = line[i];
    if (ch === " ") col += 1;
    else if (ch === "\t") col += 4 - (col % 4);
    else break;
    i += 1;
  }
  return line.slice(i);
}

/**
 * Dedents a block by its smallest non-blank indentation; blank lines become empty. Lines for
 * which `measured` is false (code-fence content) are dedented too but do not set the width.
 */
export function dedentBlock(lines: string[], measured?: readonly boolean[]): string[] {
  // A reduce, not Math.min(...widths): a long answer has more lines than a call's arguments can hold.
  const widths = lines.filter((l, i) => !isBlank(l) && measured?.[i] !== false).map(indentOf);
  const min = widths.length > 0 ? widths.reduce((a, b) => Math.min(a, b)) : 0;
  return lines.map((l) => (isBlank(l) ? "" : dedent(l, min).trimEnd()));
}

const FENCE_OPEN = /^\s*(`{3,}|~{3,})(.*)$/;

export interface FencedLine {
  text: string;
  /** 0-based line number in the input. */
  index: number;
  /** Set when the line is a fence marker or inside a fenced block: the opening fence's indent. */
  fenceIndent: number | null;
}

/**
 * Splits into lines and marks those inside fenced code blocks (``` and ~~~, any indent, closed
 * by the same character at least as long; an unclosed fence runs to the end).
 */
export function scanFences(text: string): FencedLine[] {
  const out: FencedLine[] = [];
  let fence: { char: string; len: number; indent: number } | null = null;
  text.split(/\r?\n/).forEach((line, index) => {
    if (fence) {
      out.push({ text: line, index, fenceIndent: fence.indent });
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(line);
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.len) fence = null;
      return;
    }
    const open = FENCE_OPEN.exec(line);
    // A backtick fence's info string cannot contain backticks (that is inline code).
    if (open && !(open[1]![0] === "`" && open[2]!.includes("`"))) {
      fence = { char: open[1]![0]!, len: open[1]!.length, indent: indentOf(line) };
      out.push({ text: line, index, fenceIndent: fence.indent });
      return;
    }
    out.push({ text: line, index, fenceIndent: null });
  });
  return out;
}

/** Lowercase letters, digits and single spaces only: `## 🔴 **Critical:**` → `critical`. */
export function normalizeTitle(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

const ATX_HEADER = /^ {0,3}#{1,6}(?:[ \t](.*))?$/;

/** The normalized title of an ATX header line (`## Plan` → `plan`), or null. */
export function headerTitle(line: string): string | null {
  const m = ATX_HEADER.exec(line);
  if (!m) return null;
  // An optional closing sequence of `#`s (done by hand: a regex for it backtracks badly).
  let title = (m[1] ?? "").trim();
  let end = title.length;
  while (end > 0 && title[end - 1] === "#") end -= 1;
  if (end === 0 || title[end - 1] === " " || title[end - 1] === "\t") title = title.slice(0, end);
  return normalizeTitle(title);
}

/**
 * A "label line" at column 0: `Plan:`, `**Plan:**`, `**Plan**:`, `Goal: text`. Returns the
 * normalized label and the text after the colon, or null.
 */
export function labelLine(line: string): { label: string; rest: string } | null {
  const m = /^(?:\*\*|__)?([A-Za-z][A-Za-z /-]{0,40}?)(?:\*\*|__)?[ \t]*:(?:\*\*|__)?(?:[ \t]+(.*))?$/.exec(line);
  if (!m) return null;
  return { label: normalizeTitle(m[1]!), rest: (m[2] ?? "").trim() };
}

export interface ListItem {
  indent: number;
  ordered: boolean;
  /** The item's text on its first line (may be empty). */
  text: string;
}

const LIST_ITEM = /^(\s*)(?:(\d{1,9})[.)]|([-*+]))(?:[ \t]+(.*))?$/;

/** A bullet (`-`, `*`, `+`) or numbered (`1.`, `1)`) list item, or null. */
export function listItem(line: string): ListItem | null {
  const m = LIST_ITEM.exec(line);
  if (!m) return null;
  const text = (m[4] ?? "").trim();
  // `---`, `***` and `* * *` are thematic breaks, not items.
  if (m[3] && /^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) return null;
  return { indent: indentOf(m[1]!), ordered: m[2] !== undefined, text };
}

export interface Section {
  /** Normalized title, or null for the text before the first section start. */
  title: string | null;
  kind: "header" | "label" | "start";
  /** For a label line (`Goal: text`), the text after the colon. */
  inline: string;
  lines: FencedLine[];
}

/**
 * Cuts a document into sections. A section starts at an ATX header (any level, any title) or at
 * a column-0 label line whose label is one of `labels` (e.g. `Plan:`). Headers and labels
 * inside fenced code blocks do not count.
 */
export function sections(text: string, labels: ReadonlySet<string>): Section[] {
  const out: Section[] = [{ title: null, kind: "start", inline: "", lines: [] }];
  for (const line of scanFences(text)) {
    if (line.fenceIndent === null) {
      const header = headerTitle(line.text);
      if (header !== null) {
        out.push({ title: header, kind: "header", inline: "", lines: [] });
        continue;
      }
      const label = labelLine(line.text);
      if (label && labels.has(label.label)) {
        out.push({ title: label.label, kind: "label", inline: label.rest, lines: [] });
        continue;
      }
    }
    out.at(-1)!.lines.push(line);
  }
  return out;
}

/** Splits on inline code spans (matching backtick runs); code segments have `code: true`. */
export function splitInlineCode(text: string): { text: string; code: boolean }[] {
  const parts: { text: string; code: boolean }[] = [];
  let i = 0;
  let plainStart = 0;
  while (i < text.length) {
    if (text[i] !== "`") {
      i += 1;
      continue;
    }
    let run = 1;
    while (text[i + run] === "`") run += 1;
    const ticks = "`".repeat(run);
    // The closing run must be exactly as long (not part of a longer run).
    let search = i + run;
    let close = -1;
    while (search < text.length) {
      const at = text.indexOf(ticks, search);
      if (at === -1) break;
      let end = at + run;
      if (text[end] !== "`" && text[at - 1] !== "`") {
        close = at;
        break;
      }
      while (text[end] === "`") end += 1;
      search = end;
    }
    if (close === -1) {
      i += run;
      continue;
    }
    if (i > plainStart) parts.push({ text: text.slice(plainStart, i), code: false });
    parts.push({ text: text.slice(i, close + run), code: true });
    i = close + run;
    plainStart = i;
  }
  if (plainStart < text.length) parts.push({ text: text.slice(plainStart), code: false });
  return parts;
}

// Emphasis is only recognised at word boundaries, so `src/__init__.py`, `snake_case_name`,
// `*args` and `a * b` stay as written.
const BEFORE = String.raw`(^|[\s(\[{"'])`;
const AFTER = String.raw`(?=$|[\s)\]}"',;:!?]|\.(?:\s|$))`;
const EMPHASIS = ["***", "___", "**", "__", "*", "_"].map((d) => {
  const q = d.replace(/[*_]/g, (c) => `\\${c}`);
  // Bounded inner length: an opener without a closer costs at most 1000 steps, not the line.
  return new RegExp(`${BEFORE}${q}(?=\\S)(.{1,1000}?)(?<=\\S)${q}${AFTER}`, "g");
});

/** Longer texts keep their emphasis: stripping is cosmetic and its cost grows with length. */
export const MAX_EMPHASIS_TEXT = 10_000;

/**
 * Removes `**x**`, `__x__`, `*x*`, `_x_` (and `***x***`) outside inline code; emphasis may
 * enclose code. Texts over MAX_EMPHASIS_TEXT characters are returned unchanged.
 */
export function stripEmphasis(text: string): string {
  if (text.length > MAX_EMPHASIS_TEXT) return text;
  // Code spans become opaque placeholders (private-use characters), so emphasis around them
  // still pairs up while their content is never touched.
  const codes: string[] = [];
  let s = splitInlineCode(text)
    .map((part) => {
      if (!part.code) return part.text.replace(/[\uE000\uE001]/g, "");
      codes.push(part.text);
      return `\uE000${codes.length - 1}\uE001`;
    })
    .join("");
  for (const re of EMPHASIS) s = s.replace(re, "$1$2");
  return s.replace(/\uE000(\d+)\uE001/g, (_, i: string) => codes[Number(i)]!);
}

/** Text with inline code spans removed (replaced by a space). */
export function withoutInlineCode(text: string): string {
  return splitInlineCode(text)
    .map((part) => (part.code ? " " : part.text))
    .join("");
}

/** `None`, `N/A`, `Nothing.`, `No issues found.` — an empty section, said out loud. */
export function saysNothing(text: string): boolean {
  const t = normalizeTitle(stripEmphasis(text));
  return (
    /^(none|nothing|n a|na)( (found|noted|identified|here))?$/.test(t) ||
    /^no (critical |major |blocking |other |further )?(issues|problems|findings|warnings|suggestions|concerns|risks)( (found|noted|identified))?$/.test(
      t,
    )
  );
}
