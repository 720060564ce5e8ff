/**
 * What a package's code reaches for, read from its text with patterns (nothing runs): child
 * processes, the network, dynamic code, and marks of obfuscation. A pattern names the module as
 * `require`/`import` spell it (with or without `node:`), so a word in a comment or string does not count.
 */

export type Capability = "child-process" | "network" | "eval";

/** `require("m")`, `import("m")`, `from "m"`, `import "m"`, also `m/sub` and `node:m`. */
function moduleUse(modules: readonly string[]): RegExp {
  const names = `(?:node:)?(?:${modules.join("|")})(?:/[\\w/.-]*)?`;
  return new RegExp(`(?:\\brequire\\s*\\(\\s*|\\bimport\\s*\\(\\s*|\\bfrom\\s*|\\bimport\\s+)(["'\`])${names}\\1`);
}

export const CAPABILITY_PATTERNS: Record<Capability, RegExp[]> = {
  "child-process": [moduleUse(["child_process"])],
  network: [
    moduleUse(["net", "http", "https", "http2", "dgram", "tls", "dns"]),
    /(?:^|[^.\w$]|\b(?:globalThis|window|self|global)\.)fetch\s*\(/m,
    /\bWebSocket\b/,
    /\bXMLHttpRequest\b/,
  ],
  eval: [/(?:^|[^.\w$])eval\s*\(/m, /\bnew\s+Function\s*\(/, moduleUse(["vm"])],
};

export const CAPABILITY_WORDS: Record<Capability, string> = {
  "child-process": "starts child processes (`child_process`)",
  network: "uses the network (`net`, `http(s)`, `dgram`, `tls`, `dns`, `fetch`, `WebSocket`)",
  eval: "runs code built at run time (`eval`, `new Function`, `vm`)",
};

/** The capabilities a file's text uses. */
export function capabilitiesOf(text: string): Set<Capability> {
  const found = new Set<Capability>();
  for (const [capability, patterns] of Object.entries(CAPABILITY_PATTERNS) as [Capability, RegExp[]][]) {
    if (patterns.some((pattern) => pattern.test(text))) found.add(capability);
  }
  return found;
}

/** A line longer than this, outside a `.min.` file, is a mark of obfuscation. */
export const LONG_LINE = 10_000;
/** A string literal of hex or base64 at least this long is a blob worth a look. */
export const LONG_BLOB = 2_000;

// The marks are found by hand-written scans, each character looked at a bounded number of times:
// a pattern such as /(?:\\x[0-9a-f]{2}){500,}/ starts over at every `\x` of a long run (quadratic).
const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
const isBase64 = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x2b || c === 0x2f;
const isQuote = (c: number) => c === 0x22 || c === 0x27 || c === 0x60;
const EQUALS = 0x3d;

/** Whether a line is longer than LONG_LINE characters. */
function hasLongLine(text: string): boolean {
  for (let start = 0; start <= text.length; ) {
    const end = text.indexOf("\n", start);
    if ((end === -1 ? text.length : end) - start > LONG_LINE) return true;
    if (end === -1) return false;
    start = end + 1;
  }
  return false;
}

/** The end of the run of `is` characters from `i`. */
function runEnd(text: string, i: number, is: (c: number) => boolean): number {
  while (i < text.length && is(text.charCodeAt(i))) i++;
  return i;
}

/** `\x41\x42…`: at least LONG_BLOB / 4 hex escapes in a row. */
function hasHexEscapes(text: string): boolean {
  const isEscape = (at: number) => text.startsWith("\\x", at) && isHex(text.charCodeAt(at + 2)) && isHex(text.charCodeAt(at + 3));
  for (let i = text.indexOf("\\x"); i !== -1; ) {
    let end = i;
    while (isEscape(end)) end += 4;
    if ((end - i) / 4 >= LONG_BLOB / 4) return true;
    // A run starting inside this one ends where it ends: shorter.
    i = text.indexOf("\\x", Math.max(end, i + 1));
  }
  return false;
}

/** A quote, `is` characters LONG_BLOB times or more (hex after an optional `\x`, base64 with up to two `=`), a quote. */
function hasQuotedRun(text: string, kind: "hex" | "base64"): boolean {
  for (let i = 0; i < text.length; i++) {
    if (!isQuote(text.charCodeAt(i))) continue;
    let start = i + 1;
    if (kind === "hex" && text.startsWith("\\x", start)) start += 2;
    const end = runEnd(text, start, kind === "hex" ? isHex : isBase64);
    let close = end;
    if (kind === "base64") while (close < end + 2 && text.charCodeAt(close) === EQUALS) close++;
    if (end - start >= LONG_BLOB && isQuote(text.charCodeAt(close))) return true;
    // The run holds no quote: the next literal can only open at its end.
    i = Math.max(i, end - 1);
  }
  return false;
}

/** What marks of obfuscation a file has: very long lines (not in minified files) and hex/base64 blobs. */
export function obfuscationMarks(file: string, text: string): string[] {
  const marks: string[] = [];
  const minified = [".min.js", ".min.mjs", ".min.cjs"].some((ending) => file.endsWith(ending));
  if (!minified && hasLongLine(text)) marks.push(`a line over ${LONG_LINE.toLocaleString("en")} characters`);
  if (hasHexEscapes(text) || hasQuotedRun(text, "hex")) marks.push("a long hex string");
  else if (hasQuotedRun(text, "base64")) marks.push("a long base64 string");
  return marks;
}
