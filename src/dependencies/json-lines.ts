/**
 * The line each key of a JSON text sits on, so a finding about a lockfile entry or a manifest's
 * dependency can be placed on the line the diff changes. One pass over text that JSON.parse has
 * already accepted, linear in its length: strings are skipped with `indexOf`, only keys up to
 * `maxDepth` levels deep are decoded, and only the wanted ones kept.
 */

/** A key path joined for lookup: `["packages", "node_modules/a", "version"]`. */
export const keyPath = (...keys: string[]) => keys.join("\u0000");

interface Frame {
  object: boolean;
  expectingKey: boolean;
  key: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;

/** The index after the string whose opening quote is at `start` (the text's end when it has none). */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The value of the JSON string `text[start, end)`, quotes included. */
function decode(text: string, start: number, end: number): string {
  const inner = text.slice(start + 1, end - 1);
  return inner.includes("\\") ? (JSON.parse(text.slice(start, end)) as string) : inner;
}

/**
 * Line (1-based) of every object key at most `maxDepth` deep, by `keyPath`; with `wanted`, only
 * those key paths. Frames are kept for the first `maxDepth` levels only, however deep the text.
 */
export function jsonKeyLines(text: string, maxDepth = 3, wanted?: ReadonlySet<string>): Map<string, number> {
  const lines = new Map<string, number>();
  const frames: Frame[] = [];
  let depth = 0;
  let line = 1;
  // Jumps from one character that matters to the next: quotes, brackets, commas and newlines.
  const next = /["{}[\],\n]/g;
  for (let match = next.exec(text); match !== null; match = next.exec(text)) {
    const i = match.index;
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      const top = depth <= maxDepth ? frames[depth - 1] : undefined;
      if (top?.object && top.expectingKey) {
        top.key = decode(text, i, end);
        top.expectingKey = false;
        const path = keyPath(...frames.slice(0, depth).map((f) => f.key));
        if (!wanted || wanted.has(path)) lines.set(path, line);
      }
      next.lastIndex = end;
    } else if (c === NEWLINE) line++;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth <= maxDepth) frames[depth - 1] = { object: c === 0x7b, expectingKey: c === 0x7b, key: "" };
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (depth <= maxDepth) {
      const top = frames[depth - 1];
      if (top?.object) top.expectingKey = true;
    }
  }
  return lines;
}
