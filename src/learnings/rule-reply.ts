/**
 * A writer's reply in one of crewbot's threads that states a rule for the repository ("always
 * use parameterised queries", "we prefer early returns"): its first line that is not a quote
 * starts with one of these openings, followed by at least one more word. Pure.
 */
import { normaliseKind } from "./candidates.js";

/** The openings of a rule; longer ones first so "please don't" is not read as "please". */
export const RULE_OPENINGS = [
  "please don't",
  "please do not",
  "please never",
  "please always",
  "we always",
  "we never",
  "we don't",
  "we do not",
  "we prefer",
  "always",
  "never",
  "prefer",
  "don't",
  "do not",
] as const;

/** Openings that are not rules: "never mind", "don't worry", "don't know". */
const NOT_RULES = ["never mind", "don't worry", "do not worry", "don't know", "do not know", "prefer not"] as const;

/** The reply's first line that is not a quote, emphasis and curly apostrophes made plain, lower case. */
function firstLine(body: string): string {
  const first = body
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l !== "" && !l.startsWith(">"));
  return (first ?? "").toLowerCase().replace(/[\u2018\u2019´]/g, "'").replace(/^[*_~\s]+/, "");
}

const startsWithWord = (text: string, phrase: string) => text.startsWith(phrase) && !/[a-z0-9']/.test(text.charAt(phrase.length));

/** The rule a reply states (its first line, normalised as a kind), or undefined when it states none. */
export function ruleOf(body: string): string | undefined {
  const text = firstLine(body);
  const opening = RULE_OPENINGS.find((p) => startsWithWord(text, p));
  if (!opening || NOT_RULES.some((p) => startsWithWord(text, p))) return undefined;
  if (!/[a-z0-9]/.test(text.slice(opening.length))) return undefined;
  const kind = normaliseKind(text);
  return kind === "" ? undefined : kind;
}
