import { describe, expect, it } from "vitest";
import { candidateKey, isDue, normaliseKind, pathGlobs, withSighting } from "../../src/learnings/candidates.js";
import { RULE_OPENINGS, ruleOf } from "../../src/learnings/rule-reply.js";
import type { CandidateSighting } from "../../src/learnings/types.js";
import { NOT_QUADRATIC_MS } from "../helpers/linear-time.js";

describe("normaliseKind", () => {
  it.each([
    ["Raw SQL  string", "raw sql string"],
    ["**Missing** null check.", "missing null check"],
    ["  first line\nsecond line", "first line"],
    ["Don\u2019t flag `Foo`!", "don't flag `foo`"],
    ["<!-- hidden -->visible kind", "visible kind"],
    ["", ""],
    ["a ".repeat(40), "a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a"],
    ["x".repeat(70), "x".repeat(60)],
  ])("%j → %j", (text, kind) => {
    expect(normaliseKind(text)).toBe(kind);
  });

  it("reads a writer's reply of 64 KB of closing punctuation in linear time", () => {
    const started = performance.now();
    expect(normaliseKind(`never ${". ".repeat(32_000)}x`)).toBe(`never${" .".repeat(27)}`);
    expect(ruleOf(`we always check${".".repeat(65_000)}x`)).toBe(`we always check${".".repeat(45)}`);
    expect(performance.now() - started).toBeLessThan(NOT_QUADRATIC_MS);
  });

  it("gives one key to the same lesson however it is spaced or cased", () => {
    expect(candidateKey("dismissed", "Raw SQL string.")).toBe(candidateKey("dismissed", "raw  sql STRING"));
    expect(candidateKey("dismissed", "raw sql string")).not.toBe(candidateKey("rule", "raw sql string"));
  });
});

describe("pathGlobs", () => {
  it.each([
    [[], []],
    [[undefined], []],
    [["src/db/users.ts"], ["src/db/**"]],
    [["src/db/users.ts", "src/db/orders/list.ts"], ["src/db/**"]],
    [["src/db/users.ts", "src/api/users.ts"], ["src/**"]],
    [["src/a.ts", "lib/b.ts"], ["**"]],
    [["README.md"], ["README.md"]],
    [["README.md", "README.md"], ["README.md"]],
    [["README.md", "src/a.ts"], ["**"]],
    [["./src/db/x.ts", undefined], ["src/db/**"]],
  ] as Array<[Array<string | undefined>, string[]]>)("%j → %j", (paths, globs) => {
    expect(pathGlobs(paths)).toEqual(globs);
  });
});

describe("withSighting and isDue", () => {
  const s = (o: Partial<CandidateSighting> = {}): CandidateSighting => ({
    ...{ source: "dismissed", url: "https://github.com/o/r/pull/1#discussion_r1", number: 1, by: "octocat", at: 10, kind: "raw sql string", text: "t", path: "src/db/a.ts" },
    ...o,
  });

  it("counts a thread once per source, and is due from the proposeAfter-th new sighting on", () => {
    const one = withSighting(undefined, s());
    expect(one).toMatchObject({ added: true, candidate: { count: 1, firstSeen: 10, lastSeen: 10, paths: ["src/db/**"] } });
    expect(isDue({ ...one.candidate, added: one.added }, 2)).toBe(false);
    const again = withSighting(one.candidate, s({ at: 20, by: "hubot" }));
    expect(again.added).toBe(false);
    expect(again.candidate).toBe(one.candidate);
    expect(isDue({ ...again.candidate, added: false }, 1)).toBe(false);
    const two = withSighting(one.candidate, s({ url: "https://github.com/o/r/pull/2#discussion_r5", number: 2, at: 5, path: "src/db/b/c.ts" }));
    expect(two.candidate).toMatchObject({ count: 2, firstSeen: 5, lastSeen: 10, paths: ["src/db/**"] });
    expect(isDue({ ...two.candidate, added: true }, 2)).toBe(true);
    expect(isDue({ ...two.candidate, added: true }, 3)).toBe(false);
    // A store that does not say whether the sighting was new: it counts as new.
    expect(isDue(two.candidate, 2)).toBe(true);
    // Once a learnings pull request proposed it, it is never due again.
    expect(isDue({ ...two.candidate, added: true, proposedIn: "https://github.com/o/r/pull/9" }, 2)).toBe(false);
  });
});

describe("ruleOf", () => {
  it.each([
    ["Always use parameterised queries.", "always use parameterised queries"],
    ["always use parameterised queries in `src/db`", "always use parameterised queries in `src/db`"],
    ["Never log tokens", "never log tokens"],
    ["We prefer early returns here", "we prefer early returns here"],
    ["prefer `const` over `let`", "prefer `const` over `let`"],
    ["Don\u2019t use default exports", "don't use default exports"],
    ["do not mock the database", "do not mock the database"],
    ["Please don't add comments like this", "please don't add comments like this"],
    ["> Always?\n\nnever call the API twice", "never call the API twice".toLowerCase()],
    ["**Always** pin versions", "always pin versions"],
    ["Never mind, you are right", undefined],
    ["Don't worry about it", undefined],
    ["Always.", undefined],
    ["alwaysbreak", undefined],
    ["I always forget this", undefined],
    ["We should always do this", undefined],
    ["", undefined],
  ])("%j → %j", (body, rule) => {
    expect(ruleOf(body)).toBe(rule);
  });

  it("lists each opening once, longer before shorter", () => {
    expect(new Set(RULE_OPENINGS).size).toBe(RULE_OPENINGS.length);
    RULE_OPENINGS.forEach((p, i) => RULE_OPENINGS.slice(i + 1).forEach((q) => expect(q.startsWith(p), `${q} after ${p}`).toBe(false)));
  });
});
