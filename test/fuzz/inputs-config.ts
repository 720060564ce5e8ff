/**
 * `.github/crewbot.yml` texts: configs built from the real keys with hostile values, alias bombs
 * ("billion laughs") at and over the parser's alias limit, deep nesting, huge documents, prototype
 * keys, merge keys, tags, `_extends` chains and loops — and YAML that is not YAML at all.
 */
import fc from "fast-check";
import YAML from "yaml";
import { PROTOTYPE_KEYS, anyText, edgeNumber, hostileJson, hostileText, lengthNear } from "./hostile.js";

const KEYS: Record<string, string[]> = {
  commands: ["plan", "implement", "review", "ask", "describe"],
  triggers: ["labels", "mention"],
  learnings: ["enabled", "proposeAfter", "staleDays"],
  review: ["auto", "authors", "drafts", "ignoreAuthors", "paths", "failOn", "instructions", "dependencies", "proofBudget", "summary"],
  implement: ["chain", "draft", "setup", "check", "ciFix", "commits"],
  budgets: ["maxTurns", "maxOutputTokens", "maxCostUsd", "maxMinutes"],
  models: ["worker", "planner", "constructor", "__proto__"],
  sandbox: ["network"],
  ask: ["enabled", "timeoutHours"],
  transcripts: ["public"],
};

const value = fc.oneof(
  fc.boolean(),
  edgeNumber(),
  anyText(30),
  fc.constantFrom("claude-sonnet-4-5", "trusted", "never", "git", "**", "npm test", ""),
  fc.array(anyText(20), { maxLength: 5 }),
  hostileJson(),
);

/** A config map made of crewbot's keys (and a few others), each with any value. */
const configMap = fc
  .array(
    fc.record({
      top: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...Object.keys(KEYS)) }, { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS, "_extends") }),
      sub: fc.option(fc.oneof(fc.constantFrom(...Object.values(KEYS).flat()), fc.constantFrom(...PROTOTYPE_KEYS)), { nil: undefined }),
      value,
    }),
    { maxLength: 12 },
  )
  .map((entries) => {
    const out: Record<string, unknown> = {};
    for (const { top, sub, value: v } of entries) {
      const at = (Object.hasOwn(out, top) && typeof out[top] === "object" && out[top] !== null ? out[top] : {}) as Record<string, unknown>;
      if (sub === undefined) Object.defineProperty(out, top, { value: v, enumerable: true, writable: true, configurable: true });
      else Object.defineProperty(out, top, { value: Object.defineProperty(at, sub, { value: v, enumerable: true, writable: true, configurable: true }), enumerable: true, writable: true, configurable: true });
    }
    return YAML.stringify(out);
  });

/** `a: &a [x, x, …]`, `b: &b [*a, *a, …]`, …: each level multiplies the last. */
const aliasBomb = fc.record({ levels: fc.integer({ min: 1, max: 12 }), width: fc.integer({ min: 2, max: 12 }), key: fc.constantFrom("review", "x", "__proto__") }).map(({ levels, width, key }) => {
  const lines = [`l0: &l0 [${Array(width).fill('"lol"').join(", ")}]`];
  for (let i = 1; i < levels; i++) lines.push(`l${i}: &l${i} [${Array(width).fill(`*l${i - 1}`).join(", ")}]`);
  lines.push(`${key}: *l${levels - 1}`);
  return lines.join("\n");
});

/** Aliases counted at the parser's limit (100) and past it. */
const manyAliases = lengthNear(1_000, [100, 101]).map((n) => `a: &a x\nb: [${Array(n).fill("*a").join(", ")}]`);

/** Nesting a parser must not recurse through unbounded: flow lists and maps, block maps, sequences. */
const deepYaml = fc.record({ depth: lengthNear(20_000, [100, 1_000, 10_000]), kind: fc.constantFrom("flow-list", "flow-map", "block-map", "block-list") }).map(({ depth, kind }) => {
  if (kind === "flow-list") return `review: ${"[".repeat(depth)}${"]".repeat(depth)}`;
  if (kind === "flow-map") return `review: ${"{a: ".repeat(depth)}1${"}".repeat(depth)}`;
  if (kind === "block-map") return Array.from({ length: Math.min(depth, 3_000) }, (_, i) => `${" ".repeat(i)}a:`).join("\n");
  return `${"- ".repeat(depth)}x`;
});

/** Line ends YAML reads slowly: carriage returns with no line feed, at and over the count refused. */
const loneReturns = lengthNear(64_000, [1_000, 1_001]).map((n) => `review:\n  auto: true\n${"\r".repeat(n)}x`);

/** A document of very many keys or one very long value. */
const hugeYaml = fc.record({ keys: lengthNear(120_000, [100_000]), long: fc.boolean() }).map(({ keys, long }) =>
  long ? `review:\n  ignoreTitles: ["${"x".repeat(keys * 10)}"]` : `models:\n${Array.from({ length: keys }, (_, i) => `  a${i}: claude-sonnet-4-5`).join("\n")}`,
);

const yamlSyntax = hostileText({
  max: 50_000,
  tokens: ["\n", ": ", "- ", "? ", "&a ", "*a", "<<: *a", "!!binary ", "!!set ", "!!omap ", "!!js/function ", "!foo ", "%YAML 1.1\n", "---\n", "...\n", "|\n", ">-\n", "'", "\"", "#", "{", "[", "_extends: ", "review:\n  ", "__proto__: "],
});

/** A repository's config text. */
export const configYaml = fc.oneof(
  { weight: 4, arbitrary: configMap },
  { weight: 1, arbitrary: aliasBomb },
  { weight: 1, arbitrary: manyAliases },
  { weight: 1, arbitrary: deepYaml },
  { weight: 1, arbitrary: hugeYaml },
  { weight: 1, arbitrary: loneReturns },
  { weight: 3, arbitrary: yamlSyntax },
);

/** The repository's file and, when it `_extends` one, the files it names (looping back to itself at times). */
export const configFiles = fc.record({
  own: configYaml,
  extendsTo: fc.option(fc.oneof(fc.constantFrom(".github", "other", "acme/other:conf/x.yml", "app", "../x", "a/b/c", ""), anyText(20)), { nil: undefined }),
  other: configYaml,
});

const definitionKeys = fc.dictionary(
  fc.oneof(fc.constantFrom("name", "description", "tools", "model", "maxTurns", "thinking", "trigger", "agents", "repeat", "gap", "steps"), fc.constantFrom(...PROTOTYPE_KEYS)),
  fc.oneof(value, fc.constantFrom("worker", "read, grep", "(a+)+$", "\\1", "x{1000}{1000}", "after-gap", "once")),
  { maxKeys: 6, noNullPrototype: true },
);

/** An agent, chain, rule or skill file: `---` frontmatter (hostile YAML too) and a body, up to past the 256 KB cap. */
export const definitionFile = fc.record({
  frontmatter: fc.oneof(definitionKeys.map((keys) => YAML.stringify(keys)), configYaml),
  opener: fc.constantFrom("---", "---yaml", "---js", "--- javascript", "\uFEFF---", "----"),
  body: hostileText({ max: 270_000, caps: [256 * 1024], tokens: ["\n1. worker: do it", "\n- scout: look", "\nparallel:\n  - a: x", "{previous}", "{task}", "\n---\n", "\n  "] }),
}).map(({ frontmatter, opener, body }) => `${opener}\n${frontmatter}\n---\n${body}`);
