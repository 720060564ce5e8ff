/**
 * Stable fingerprints of findings, so an automatic review after new commits does not post a
 * finding again (DESIGN.md §1: "no finding posted twice"). Line numbers shift between pushes, so a
 * fingerprint is the path, the finding's text and the code line it points at — never the number.
 * Each posted finding carries its fingerprint as a hidden `<!-- crewbot:finding:<hash> -->`, which
 * is how the next review reads back what is already on GitHub.
 */
import { createHash } from "node:crypto";
import type { Finding } from "./types.js";

/**
 * Lower-cased with whitespace collapsed; backticked spans keep their case (`Foo` and `foo` are
 * different identifiers) and numbers stay (off-by-one and off-by-two are different findings).
 */
export function normaliseRule(text: string): string {
  return text
    .split(/(`+[^`]*`+)/)
    .map((part, i) => (i % 2 === 1 ? part : part.toLowerCase()))
    .join("")
    .replace(/\s+/g, " ")
    .trim();
}

/** Indentation and spacing changes do not make a line new. */
export function normaliseCode(line: string | undefined): string {
  return (line ?? "").replace(/\s+/g, " ").trim();
}

/** sha256 of path, rule text and code line; the first 16 hex characters. */
export function fingerprint(finding: Pick<Finding, "path" | "text">, codeLine: string | undefined): string {
  return createHash("sha256")
    .update(`${finding.path}\0${normaliseRule(finding.text)}\0${normaliseCode(codeLine)}`)
    .digest("hex")
    .slice(0, 16);
}

/**
 * The findings not posted before, in order; a finding repeated within `findings` is kept once.
 * `lineText(path, line)` gives the code at the finding's first line (undefined when unknown).
 */
export function newFindings(
  findings: readonly Finding[],
  alreadyPosted: ReadonlySet<string>,
  lineText: (path: string, line: number) => string | undefined,
): Finding[] {
  const seen = new Set(alreadyPosted);
  const fresh: Finding[] = [];
  for (const finding of findings) {
    const hash = fingerprint(finding, lineText(finding.path, finding.line));
    if (seen.has(hash)) continue;
    seen.add(hash);
    fresh.push(finding);
  }
  return fresh;
}

export function fingerprintMarker(hash: string): string {
  return `<!-- crewbot:finding:${hash} -->`;
}

const MARKER = /<!--\s*crewbot:finding:([0-9a-f]{16})\s*-->/g;

/** Every fingerprint marker in the given bodies (review bodies and review comments alike). */
export function postedFingerprints(bodies: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (const body of bodies) for (const m of body.matchAll(MARKER)) found.add(m[1]!);
  return found;
}
