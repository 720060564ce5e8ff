/**
 * `.github/crewbot/learnings.md`: one top-level markdown bullet per learning. crewbot writes each
 * bullet with a hidden `<!-- crewbot:learning:<id> -->` so its uses stay counted when people
 * reword it; a bullet a person wrote without one gets the hash of its words as its id. What
 * people wrote (a heading, a note, their bullets) is kept byte for byte when crewbot proposes the
 * file again: it drops or appends whole bullets (`fileBlocks`). Pure.
 */
import { createHash } from "node:crypto";

export interface Learning {
  /** 8 hex characters: the marker's, else the hash of the bullet's normalised text. */
  id: string;
  /** The bullet's text without the marker, continuation lines joined with "\n". */
  text: string;
  /** 1-based line of the bullet in the file. */
  line: number;
  /** Lines the bullet spans, its continuation lines included. */
  span: number;
}

export interface LearningsFile {
  learnings: Learning[];
  /** The file's lines that are not part of a bullet, in order (kept when crewbot rewrites the file). */
  preamble: string[];
}

/** No leading `\s*`: it would rescan a long run of spaces from each of its characters; `trim` takes the space before. */
const MARKER = /<!--\s*crewbot:learning:([0-9a-f]{8})\s*-->\s*$/;
const BULLET = /^[-*+]\s+(.*)$/;
/** A continuation of a bullet: indented, and not a new top-level bullet. */
const CONTINUATION = /^\s{2,}\S/;

export const learningMarker = (id: string): string => `<!-- crewbot:learning:${id} -->`;

/** The id of a bullet without a marker: its words, case and spacing aside. */
export function learningId(text: string): string {
  return createHash("sha256").update(text.toLowerCase().replace(/\s+/g, " ").trim()).digest("hex").slice(0, 8);
}

/** Reads the file; anything that is not a top-level bullet (or a bullet's indented continuation) is preamble. */
export function parseLearnings(markdown: string): LearningsFile {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const learnings: Learning[] = [];
  const preamble: string[] = [];
  let current: { lines: string[]; line: number } | undefined;
  let fence = false;
  const flush = () => {
    if (!current) return;
    const joined = current.lines.join("\n");
    const marker = MARKER.exec(joined);
    const text = joined.replace(MARKER, "").trim();
    if (text) learnings.push({ id: marker?.[1] ?? learningId(text), text, line: current.line, span: current.lines.length });
    current = undefined;
  };
  lines.forEach((raw, i) => {
    if (/^\s*(```|~~~)/.test(raw)) fence = !fence;
    const bullet = fence ? null : BULLET.exec(raw);
    if (bullet) {
      flush();
      current = { lines: [bullet[1]!], line: i + 1 };
    } else if (current && !fence && CONTINUATION.test(raw)) {
      current.lines.push(raw.trim());
    } else {
      flush();
      preamble.push(raw);
    }
  });
  flush();
  while (preamble.length > 0 && preamble[preamble.length - 1] === "") preamble.pop();
  return { learnings, preamble };
}

export const DEFAULT_PREAMBLE = [
  "# crewbot learnings",
  "",
  "What this team taught crewbot in its review threads. crewbot's reviewer and planner read this file from the default branch.",
  "Edit or delete any bullet like any other change; crewbot proposes additions and removals in its `crewbot/learnings` pull request.",
];

/** One bullet as crewbot writes it: the text, continuation lines indented, and its marker. */
export const renderBullet = (l: Pick<Learning, "id" | "text">): string => `- ${l.text.trim().split("\n").join("\n  ")} ${learningMarker(l.id)}`;

/** The file again: the preamble (or the default one), a blank line, one bullet per learning with its marker. */
export function renderLearnings(file: { learnings: ReadonlyArray<Pick<Learning, "id" | "text">>; preamble?: readonly string[] }): string {
  const preamble = file.preamble && file.preamble.length > 0 ? file.preamble : DEFAULT_PREAMBLE;
  const bullets = file.learnings.map(renderBullet);
  return `${[...preamble, "", ...bullets].join("\n")}\n`;
}

/** A piece of the file as written: one bullet's lines (`id` set), or one other line; each with its own line end. */
export interface FileBlock {
  raw: string;
  id?: string;
}

/** The file cut into its bullets and other lines, byte for byte: joined, they are the file again. */
export function fileBlocks(markdown: string): FileBlock[] {
  // Each line keeps its end (LF, CRLF or CR), as parseLearnings counts lines.
  const lines = markdown === "" ? [] : markdown.split(/(?<=\n|\r(?!\n))/);
  const starts = new Map(parseLearnings(markdown).learnings.map((l) => [l.line - 1, l] as const));
  const blocks: FileBlock[] = [];
  for (let i = 0; i < lines.length; ) {
    const learning = starts.get(i);
    const span = learning?.span ?? 1;
    blocks.push({ raw: lines.slice(i, i + span).join(""), ...(learning ? { id: learning.id } : {}) });
    i += span;
  }
  return blocks;
}
