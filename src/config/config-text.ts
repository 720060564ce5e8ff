/**
 * What a config file's text must be before YAML is asked to make it into values: a config is a
 * few KB of a few keys. YAML's duplicate-key check compares each key of a map with every other
 * (12 000 keys took seconds, blocking the process every installation shares), so a text too long,
 * or with a map or list too wide, is refused by name instead. Pure.
 */
import { isMap, isPair, isScalar, parseDocument, visit } from "yaml";
import { keyName } from "./validate.js";

/** The longest config file read, in characters (a real one is a few KB). */
export const MAX_CONFIG_CHARS = 64 * 1024;
/** The most entries in one map or list. */
export const MAX_CONFIG_ENTRIES = 1_000;

const n = (count: number) => count.toLocaleString("en-US");

/**
 * Line breaks, commas and brackets (a map or list cannot have more entries than the text has of
 * these, plus one), and the carriage returns with no line feed after them, which YAML reads in
 * time that grows with the square of their number.
 */
function separators(text: string): { separators: number; loneReturns: number } {
  let count = 0;
  let loneReturns = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\r" && text[i + 1] !== "\n") loneReturns++;
    else if ("\n,[{".includes(c)) count++;
  }
  return { separators: count + loneReturns, loneReturns };
}

/** Why the text is not parsed, naming where; undefined when it may be. */
export function configTextProblem(text: string): string | undefined {
  if (text.length > MAX_CONFIG_CHARS) return `the file is ${n(text.length)} characters long; crewbot reads at most ${n(MAX_CONFIG_CHARS)}`;
  const counted = separators(text);
  if (counted.loneReturns > MAX_CONFIG_ENTRIES) return `${n(counted.loneReturns)} lines end in a lone carriage return (\\r); crewbot reads at most ${n(MAX_CONFIG_ENTRIES)} (end lines with \\n)`;
  // Most texts cannot hold a wide collection at all: no need to read them twice.
  if (counted.separators < MAX_CONFIG_ENTRIES) return undefined;
  let problem: string | undefined;
  try {
    // Without the duplicate-key check (what is slow); nothing here resolves an alias.
    visit(parseDocument(text, { uniqueKeys: false }), {
      Collection(_key, node, ancestors) {
        if (node.items.length <= MAX_CONFIG_ENTRIES) return undefined;
        const keys = ancestors.flatMap((a) => (isPair(a) ? [isScalar(a.key) ? String(a.key.value) : String(a.key)] : []));
        problem = `\`${keyName(keys)}\`: a ${isMap(node) ? "map" : "list"} of ${n(node.items.length)} entries; crewbot reads at most ${n(MAX_CONFIG_ENTRIES)} in one map or list`;
        return visit.BREAK;
      },
    });
  } catch (error) {
    // A nesting too deep for the parser's own recursion.
    if (!(error instanceof RangeError)) throw error;
    return `nested too deep to read (${error.message})`;
  }
  return problem;
}
