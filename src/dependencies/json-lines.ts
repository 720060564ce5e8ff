/**
 * The line each key of a JSON text sits on, so a finding about a lockfile entry or a manifest's
 * dependency can be placed on the line the diff changes. One pass over text that JSON.parse has
 * already accepted; only keys up to `maxDepth` levels deep are kept.
 */

/** A key path joined for lookup: `["packages", "node_modules/a", "version"]`. */
export const keyPath = (...keys: string[]) => keys.join("\u0000");

interface Frame {
  object: boolean;
  expectingKey: boolean;
  key?: string;
}

/** Reads a JSON string starting at the quote at `start`; returns its value and the index after it. */
function readString(text: string, start: number): { value: string; end: number } {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
  return { value: JSON.parse(text.slice(start, i + 1)) as string, end: i + 1 };
}

/** Line (1-based) of every object key at most `maxDepth` deep, by `keyPath`. */
export function jsonKeyLines(text: string, maxDepth = 3): Map<string, number> {
  const lines = new Map<string, number>();
  const stack: Frame[] = [];
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\n") line++;
    if (c === '"') {
      const { value, end } = readString(text, i);
      const top = stack.at(-1);
      if (top?.object && top.expectingKey) {
        top.key = value;
        top.expectingKey = false;
        if (stack.length <= maxDepth) lines.set(keyPath(...stack.map((f) => f.key ?? "")), line);
      }
      i = end;
      continue;
    }
    if (c === "{" || c === "[") stack.push({ object: c === "{", expectingKey: c === "{" });
    else if (c === "}" || c === "]") stack.pop();
    else if (c === ",") {
      const top = stack.at(-1);
      if (top?.object) top.expectingKey = true;
    }
    i++;
  }
  return lines;
}
