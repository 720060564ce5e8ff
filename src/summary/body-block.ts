/**
 * Where the summary block goes in a pull request's description: appended when absent, replaced
 * when crewbot's own, left alone when someone edited inside it. Text outside the markers is never
 * changed, its trailing spaces included (the writer sends it byte for byte). Pure: the writer (report/github-writer.ts `editPullBody`) re-reads the body and calls
 * this again when it changed meanwhile.
 */
import { COMMENT_LIMIT } from "../text/github-markdown.js";
import { contentHash, hashOfLine, SUMMARY_END, SUMMARY_START } from "./render-summary.js";

export type Splice =
  /** The new body to write. */
  | { kind: "write"; body: string }
  /** The block is there already, exactly as it would be written. */
  | { kind: "unchanged" }
  /** The block is not crewbot's as it wrote it (edited, its hash line gone, an end marker missing): left alone. */
  | { kind: "hand-edited"; why: string }
  /** The description with the block would pass GitHub's limit: the writer would cut it, the author's text with it. */
  | { kind: "too-long"; why: string };

interface Found {
  start: number;
  /** Just past the end marker. */
  end: number;
  /** What lies between the markers. */
  inner: string;
}

function findBlock(body: string): Found | "unclosed" | undefined {
  const start = body.indexOf(SUMMARY_START);
  if (start < 0) return undefined;
  const endAt = body.indexOf(SUMMARY_END, start + SUMMARY_START.length);
  if (endAt < 0) return "unclosed";
  return { start, end: endAt + SUMMARY_END.length, inner: body.slice(start + SUMMARY_START.length, endAt) };
}

/** Whether the block's content is what crewbot wrote: the hash line first, and the rest hashing to it. */
export function handEdit(inner: string): string | undefined {
  const text = inner.replace(/\r\n?/g, "\n").replace(/^\n+/, "");
  const newline = text.indexOf("\n");
  const hash = hashOfLine(newline < 0 ? text : text.slice(0, newline));
  if (!hash) return "the block has no crewbot hash line (it was written or changed by hand)";
  if (contentHash(newline < 0 ? "" : text.slice(newline + 1)) !== hash) return "its text differs from what crewbot last wrote there";
  return undefined;
}

/** The body with `block` in place of crewbot's block, or after the text when there is none. */
export function spliceSummary(body: string | null | undefined, block: string, max = COMMENT_LIMIT): Splice {
  const out = spliceInto(body ?? "", block);
  if (out.kind === "write" && out.body.length > max) {
    return { kind: "too-long", why: `the description with the summary would be ${out.body.length.toLocaleString("en-US")} characters, over GitHub's ${max.toLocaleString("en-US")}` };
  }
  return out;
}

/** What goes between the author's text, kept to its last byte, and a block appended after it: enough line ends for a blank line. */
function separator(text: string): string {
  if (text === "") return "";
  // A loop, not a regex: the author's text may end in any number of spaces.
  let ends = 0;
  for (let i = text.length - 1; i >= 0 && ends < 2 && /\s/.test(text[i]!); i -= 1) if (text[i] === "\n") ends += 1;
  return "\n".repeat(2 - ends);
}

function spliceInto(text: string, block: string): Splice {
  const found = findBlock(text);
  if (found === "unclosed") return { kind: "hand-edited", why: "the block's end marker `<!-- crewbot:summary:end -->` is missing" };
  if (!found) return { kind: "write", body: `${text}${separator(text)}${block}` };
  const why = handEdit(found.inner);
  if (why) return { kind: "hand-edited", why };
  if (text.slice(found.start, found.end).replace(/\r\n?/g, "\n") === block) return { kind: "unchanged" };
  return { kind: "write", body: text.slice(0, found.start) + block + text.slice(found.end) };
}
