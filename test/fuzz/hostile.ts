/**
 * Hostile inputs, not random ones: what a stranger types to break a parser. Long runs of one
 * piece (they make backtracking patterns quadratic), sizes at and just over a cap, markup openers
 * that never close, controls, bidi, NULs and lone surrogates, prototype keys, numbers at the
 * edges, deep nesting, and arrays far longer than any cap should let through.
 */
import fc from "fast-check";

/** Pieces that break naive parsers: whitespace, brackets, markup openers, controls, bidi, NUL, lone surrogates. */
export const HOSTILE_PIECES = [
  " ", "\t", "\n", "\r\n", "\r", "\u00a0", "\u2028", "\u0085", "\0", "\u0007", "\u202e", "\u2066", "\u200b", "\ufeff", "\ud800", "\udc00", "😀",
  "[", "]", "(", ")", "![", "[a](", "<", ">", "<!--", "-->", "`", "``", "```", "~~~", "*", "**", "_", "~", "#", "## ", "> ", "@", "&#", "&#64;",
  "\\", "/", ".", ":", ",", ";", "-", "=", "\"", "'", "{", "}", "${", "%", "|", "- ", "- [ ] ", "- [x] ", "1. ", "a", "Z", "0", "9", "é",
  "__proto__", "constructor", "prototype", "toString",
] as const;

/** Object keys that pollute or shadow when a parser writes `obj[key] = …` or reads `obj[key]`. */
export const PROTOTYPE_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf", "__defineGetter__"] as const;

/** Numbers at the edges: zero and its sign, the safe-integer and 32-bit limits, huge, tiny, fractional. */
export const EDGE_NUMBERS = [0, -0, 1, -1, 0.5, 2 ** 31 - 1, 2 ** 31, 2 ** 32, -(2 ** 31), Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, -Number.MAX_SAFE_INTEGER, 1e21, 1e308, -1e308, 5e-324] as const;

export const edgeNumber = (): fc.Arbitrary<number> => fc.oneof(fc.constantFrom(...EDGE_NUMBERS), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));

/** A short string of any UTF-16 code units (lone surrogates, NULs and controls included). */
export const anyText = (maxLength = 40): fc.Arbitrary<string> => fc.string({ unit: "binary", maxLength });

/** One piece: a hostile one, a parser's own token, or a few random code units. */
function piece(tokens: readonly string[]): fc.Arbitrary<string> {
  const known = [...HOSTILE_PIECES, ...tokens];
  return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: anyText(6) });
}

/** A length up to `max`, often exactly at one of `caps` or one past it. */
export function lengthNear(max: number, caps: readonly number[] = []): fc.Arbitrary<number> {
  const edges = [...new Set(caps.flatMap((cap) => [cap - 1, cap, cap + 1]))].filter((n) => n >= 0 && n <= max);
  return edges.length === 0 ? fc.integer({ min: 0, max }) : fc.oneof(fc.integer({ min: 0, max }), fc.constantFrom(...edges));
}

export interface TextOptions {
  /** Longest text made (sizes are drawn up to it, often at the caps). */
  max: number;
  /** The parser's caps, in characters: lengths at and just over each are drawn often. */
  caps?: readonly number[];
  /** The parser's own syntax (markers, keywords), mixed in with the hostile pieces. */
  tokens?: readonly string[];
}

/** `prefix + unit.repeat(n) + suffix`, where the unit is one to three pieces: the shape that makes patterns backtrack. */
function longRun(options: TextOptions): fc.Arbitrary<string> {
  const pieces = piece(options.tokens ?? []);
  return fc
    .record({ prefix: fc.array(pieces, { maxLength: 4 }), unit: fc.array(pieces, { minLength: 1, maxLength: 3 }), length: lengthNear(options.max, options.caps), suffix: fc.array(pieces, { maxLength: 4 }) })
    .map(({ prefix, unit, length, suffix }) => {
      const one = unit.join("") || " ";
      const run = one.repeat(Math.ceil(length / one.length)).slice(0, length);
      return `${prefix.join("")}${run}${suffix.join("")}`;
    });
}

/** Pieces strung together at random: markup that opens and never closes, syntax in odd places. */
function mixed(options: TextOptions, maxPieces: number): fc.Arbitrary<string> {
  return fc.array(piece(options.tokens ?? []), { maxLength: maxPieces }).map((parts) => parts.join(""));
}

/** Lines of pieces, some of them repeated many times (a long list, a long log). */
function manyLines(options: TextOptions): fc.Arbitrary<string> {
  return fc
    .record({ lines: fc.array(mixed(options, 8), { minLength: 1, maxLength: 6 }), times: fc.integer({ min: 1, max: Math.max(1, Math.floor(options.max / 8)) }) })
    .map(({ lines, times }) => {
      const block = lines.join("\n");
      return `${block}\n`.repeat(Math.max(1, Math.min(times, Math.floor(options.max / (block.length + 1))))).slice(0, options.max);
    });
}

/** Text a stranger could write: random, mixed pieces, long runs at the caps, many lines. */
export function hostileText(options: TextOptions): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: anyText(200) },
    { weight: 3, arbitrary: mixed(options, 60) },
    { weight: 4, arbitrary: longRun(options) },
    { weight: 2, arbitrary: manyLines(options) },
  );
}

/** A JSON-able value whose keys include prototype keys, its strings hostile, its numbers at the edges. */
export function hostileJson(): fc.Arbitrary<unknown> {
  const key = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), anyText(12));
  const leaf = fc.oneof(fc.constant(null), fc.boolean(), edgeNumber(), anyText(30));
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf,
      fc.array(tie("value"), { maxLength: 5 }),
      fc.dictionary(key, tie("value"), { maxKeys: 5, noNullPrototype: true }),
    ),
  })).value;
}

/** A value nested `depth` deep, as JSON text: arrays or objects. */
export function deepJson(maxDepth: number): fc.Arbitrary<string> {
  return fc
    .record({ depth: lengthNear(maxDepth, [1_000, 10_000]), object: fc.boolean() })
    .map(({ depth, object }) => (object ? `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}` : `${"[".repeat(depth)}1${"]".repeat(depth)}`));
}

/** Non-ASCII and controls as `\uXXXX`, so a failure message shows a bidi override or a NUL instead of obeying it. */
const printable = (text: string) => text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** A short, printable summary of an input for a failure message (a 1 MB string is not printed whole). */
export function describeInput(input: unknown, max = 160): string {
  if (Buffer.isBuffer(input)) return `${input.length} bytes`;
  if (typeof input === "string") {
    const head = `"${printable(input.slice(0, max))}"`;
    return input.length > max ? `${head}… (${input.length} characters)` : head;
  }
  let text: string;
  try {
    text = JSON.stringify(input, (_key, value: unknown) => (typeof value === "string" && value.length > 80 ? `${value.slice(0, 60)}… (${value.length} characters)` : Buffer.isBuffer(value) ? `<${value.length} bytes>` : value));
  } catch {
    text = String(input);
  }
  if (text === undefined) return String(input);
  return printable(text.length > max * 2 ? `${text.slice(0, max * 2)}… (${text.length} characters)` : text);
}
