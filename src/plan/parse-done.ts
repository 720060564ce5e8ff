/** The worker's `[DONE:n]` markers (DESIGN.md §3): which plan steps it reports finished. */
import { scanFences, withoutInlineCode } from "../text/markdown.js";

const MARKER = /\[\s*done\s*:\s*(\d{1,9})\s*\]/gi;

/**
 * Step numbers marked `[DONE:n]` (also `[DONE: 3]`, `[done:3]`), outside fenced code blocks and
 * inline code; unique, ascending, ≥ 1, and ≤ stepCount when given.
 */
export function parseDoneMarkers(text: string, stepCount?: number): number[] {
  const found = new Set<number>();
  for (const line of scanFences(text)) {
    if (line.fenceIndent !== null) continue;
    for (const m of withoutInlineCode(line.text).matchAll(MARKER)) {
      const n = Number(m[1]);
      if (n >= 1 && (stepCount === undefined || n <= stepCount)) found.add(n);
    }
  }
  return [...found].sort((a, b) => a - b);
}
