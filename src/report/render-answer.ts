/**
 * An `/ask` answer's citations made permalinks (DESIGN.md §1): the agent cites code as
 * `path#L10` or `path#L10-L14` (in backticks, bare, or as a link's target); each citation that
 * checks out at the commit the agent read becomes a link to `…/blob/<sha>/<path>#L10-L14`, and one
 * that does not stays plain text with a note saying why — never a link that goes nowhere. Code
 * blocks are left as they are. Pure: the job checks the files (workspace/blob-lines.ts).
 */
import { splitCodeSpans } from "../text/github-markdown.js";

export interface Citation {
  /** Relative to the repository root, as the commit names it. */
  path: string;
  start: number;
  end: number;
}

/** Why a citation is not linked, or undefined when it checks out. */
export type CitationCheck = (citation: Citation) => string | undefined;

/** A path as agents write it: no spaces, no `@` (neutralised in comments), no `..`. */
const PATH = String.raw`(?:\.\/|\/)?[\w.+-]+(?:\/[\w.+-]+)*`;
const LINES = String.raw`#L(\d{1,7})(?:-L?(\d{1,7}))?`;
/** `](path#L1)`: the target of the agent's own markdown link. */
const TARGET = new RegExp(String.raw`\]\((${PATH})${LINES}\)`, "g");
/** A bare citation: after the line's start, a space or an opening bracket; not inside a word or a URL. */
const BARE = new RegExp(String.raw`(?<=^|[\s([{,;])(${PATH})${LINES}(?![\w#/-])`, "g");
const WHOLE = new RegExp(String.raw`^(${PATH})${LINES}$`);
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** A path made repository-relative, or undefined when it cannot name a file of the commit. */
function cleanPath(raw: string): string | undefined {
  const p = raw.replace(/^\.?\//, "");
  const parts = p.split("/");
  if (parts.some((part) => part === "." || part === "..") || p === "") return undefined;
  return p;
}

function citationOf(rawPath: string, start: string, end: string | undefined): Citation | undefined {
  const p = cleanPath(rawPath);
  if (!p) return undefined;
  return { path: p, start: Number(start), end: end === undefined ? Number(start) : Number(end) };
}

/** Every citation of `text` outside code blocks, in order (repeats included). */
export function citationsIn(text: string): Citation[] {
  const found: Citation[] = [];
  rewrite(text, (citation) => {
    found.push(citation);
    return undefined;
  });
  return found;
}

/** `#L10` or `#L10-L14`, as GitHub's blob anchors write them. */
export const anchorOf = (c: Citation) => (c.end === c.start ? `#L${c.start}` : `#L${c.start}-L${c.end}`);

/**
 * `text` with its citations linked: `blobUrl(path)` is the file's page at the commit (the
 * permalink base), `check` says why one is not linked.
 */
export function linkCitations(text: string, check: CitationCheck, blobUrl: (path: string) => string): string {
  return rewrite(text, (citation, shown) => {
    const why = check(citation);
    return why === undefined ? { url: `${blobUrl(citation.path)}${anchorOf(citation)}` } : { note: `${shown} _(not linked: ${why})_` };
  });
}

type Replace = (citation: Citation, shown: string) => { url: string } | { note: string } | undefined;

function rewrite(text: string, replace: Replace): string {
  let fence: string | undefined;
  return text
    .split("\n")
    .map((line) => {
      const open = FENCE.exec(line);
      if (fence !== undefined) {
        if (open && open[1]![0] === fence[0] && open[1]!.length >= fence.length && line.trim() === open[1]) fence = undefined;
        return line;
      }
      if (open) {
        fence = open[1]!;
        return line;
      }
      return rewriteLine(line, replace);
    })
    .join("\n");
}

function rewriteLine(line: string, replace: Replace): string {
  const parts = splitCodeSpans(line);
  return parts
    .map((part, i) => {
      if (!part.code) return rewritePlain(part.text, replace);
      // A code span that is exactly a citation; left alone as the text of the agent's own link.
      const inner = /^(`+) ?(.*?) ?\1$/s.exec(part.text)?.[2] ?? "";
      const m = WHOLE.exec(inner);
      const ownLink = parts[i - 1]?.text.endsWith("[") && parts[i + 1]?.text.startsWith("](");
      const citation = m && !ownLink ? citationOf(m[1]!, m[2]!, m[3]) : undefined;
      if (!citation) return part.text;
      const done = replace(citation, part.text);
      if (!done) return part.text;
      return "url" in done ? `[${part.text}](${done.url})` : done.note;
    })
    .join("");
}

function rewritePlain(text: string, replace: Replace): string {
  const targets = text.replace(TARGET, (all, p: string, start: string, end: string | undefined) => {
    const citation = citationOf(p, start, end);
    const done = citation && replace(citation, `\`${citation.path}${anchorOf(citation)}\``);
    if (!done) return all;
    // The link's text stays; a target that does not check out becomes a note after it.
    return "url" in done ? `](${done.url})` : `] (${done.note})`;
  });
  return targets.replace(BARE, (all, p: string, start: string, end: string | undefined, offset: number, whole: string) => {
    // Inside a link's text (`[src/a.ts#L1](…)`) the link is the agent's own; a link's target was the pass above's.
    if (whole[offset - 1] === "[" && whole.startsWith("](", offset + all.length)) return all;
    if (whole.slice(Math.max(0, offset - 2), offset) === "](") return all;
    const citation = citationOf(p, start, end);
    const done = citation && replace(citation, `\`${citation.path}${anchorOf(citation)}\``);
    if (!done) return all;
    return "url" in done ? `[${all}](${done.url})` : done.note;
  });
}
