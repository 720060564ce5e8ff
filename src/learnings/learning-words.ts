/**
 * The model's words for a learning are data: shown for human review in the pull request, then
 * (once merged) read by the reviewer. Before they are written anywhere: one line, capped, no
 * ping, no HTML (no marker, no hidden text), no link or issue reference — the only links are the
 * candidate's threads, which crewbot adds itself. Pure.
 */
import { safeLine } from "../text/github-markdown.js";

export const MAX_LEARNING_CHARS = 300;
export const MIN_LEARNING_CHARS = 10;

export type CheckedWords = { ok: true; text: string } | { ok: false; reason: string };

const CHECKS: Array<[RegExp, string]> = [
  [/<!--|-->/, "it holds an HTML comment"],
  [/\bhttps?:\/\/|\bwww\.|\]\(|<https?:|\bmailto:/i, "it holds a link (crewbot adds the threads' links itself)"],
  [/(?:^|[^\w&/])#\d+\b|\bGH-\d+\b|\b[\w.-]+\/[\w.-]+#\d+\b/i, "it references an issue or pull request (crewbot adds the threads' links itself)"],
  [/^\s*\[[ xX]\]/, "it starts with a task box"],
  [/^\s*(?:[-*+]|\d+[.)])\s/, "it starts like a list item"],
];

/** The words as they go into the file, or why they do not. */
export function checkLearningWords(raw: string): CheckedWords {
  const flat = raw.replace(/[\p{Cc}\p{Cf}]/gu, " ").replace(/\s+/g, " ").trim();
  if (flat.length < MIN_LEARNING_CHARS) return { ok: false, reason: `it is shorter than ${MIN_LEARNING_CHARS} characters` };
  if (flat.length > MAX_LEARNING_CHARS) return { ok: false, reason: `it is longer than ${MAX_LEARNING_CHARS} characters` };
  for (const [pattern, reason] of CHECKS) if (pattern.test(flat)) return { ok: false, reason };
  // Mentions broken (no ping), HTML outside code made literal.
  return { ok: true, text: safeLine(flat) };
}
