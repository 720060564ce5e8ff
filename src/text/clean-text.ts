/**
 * Cleans issue and comment text before an agent reads it: what a person reading the issue on
 * GitHub cannot see must not reach the model either (hidden instructions are the classic
 * prompt-injection carrier). Modelled on claude-code-action's sanitizer.
 */

const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
// Zero-width, word joiner, BOM, soft hyphen, and the bidi controls (embeddings, overrides, isolates, marks).
const INVISIBLE = /[\u200B-\u200F\u2060-\u2064\uFEFF\u00AD\u202A-\u202E\u2066-\u2069\u061C\u180E]/g;
// C0 and C1 controls except tab and newline.
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;
// Linear over a stranger's text: no run these patterns scan can pass where another match would
// start (a `[`, a `](`, a `(`), so a long run of unclosed openers is read once, not once per opener.
const IMAGE_ALT = /!\[[^\][]*\]\(/g;
const LINK_TITLE = /(\[[^\][]*\]\(\s*(?:[^\s)\]]|\](?!\())+)\s+(?:"[^"]*"|'[^']*'|\([^()]*\))\s*\)/g;
const REFERENCE_TITLE = /^(\s{0,3}\[[^\][]+\]:\s*\S+)\s+(?:"[^"]*"|'[^']*'|\([^()]*\))\s*$/gm;
const HIDDEN_ATTRIBUTE = /\s(?:alt|title|aria-label|aria-description|placeholder|data-[\w-]+)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/gi;
const NUMERIC_ENTITY = /&#(x[0-9a-f]+|\d+);/gi;

function decodeEntity(_match: string, code: string): string {
  const n = code[0] === "x" || code[0] === "X" ? parseInt(code.slice(1), 16) : parseInt(code, 10);
  // Printable ASCII only: an entity is a way to smuggle the invisible characters removed above.
  return n >= 0x20 && n <= 0x7e ? String.fromCharCode(n) : "";
}

export function cleanText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(HTML_COMMENT, "")
    .replace(INVISIBLE, "")
    .replace(CONTROL, "")
    .replace(IMAGE_ALT, "![](")
    .replace(LINK_TITLE, "$1)")
    .replace(REFERENCE_TITLE, "$1")
    .replace(HIDDEN_ATTRIBUTE, "")
    .replace(NUMERIC_ENTITY, decodeEntity);
}
