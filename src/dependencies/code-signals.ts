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

/** A line longer than this, outside a `.min.` file, is a mark of obfuscated code. */
export const LONG_LINE = 10_000;
/** A string literal of hex or base64 at least this long is a blob worth a look. */
export const LONG_BLOB = 2_000;

const HEX_BLOB = new RegExp(`["'\`](?:\\\\x)?[0-9a-fA-F]{${LONG_BLOB},}["'\`]|(?:\\\\x[0-9a-fA-F]{2}){${LONG_BLOB / 4},}`);
const BASE64_BLOB = new RegExp(`["'\`][A-Za-z0-9+/]{${LONG_BLOB},}={0,2}["'\`]`);

/** What marks of obfuscation a file has: very long lines (not in minified files) and hex/base64 blobs. */
export function obfuscationMarks(file: string, text: string): string[] {
  const marks: string[] = [];
  if (!/\.min\.[cm]?js$/.test(file) && text.split("\n").some((line) => line.length > LONG_LINE)) marks.push(`a line over ${LONG_LINE.toLocaleString("en")} characters`);
  if (HEX_BLOB.test(text)) marks.push("a long hex string");
  else if (BASE64_BLOB.test(text)) marks.push("a long base64 string");
  return marks;
}
