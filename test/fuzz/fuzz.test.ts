/**
 * Every parser of untrusted input (`parsers.ts`) on a short run of hostile inputs, each parser
 * with its fixed seed: no throw but a named error, every input within its time and heap budget.
 * A failure names the parser, the problem, the input and the seed and path that replay it;
 * `FUZZ_ONLY=<name> npm run fuzz` tries the same inputs and more.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { describeFailure, fuzzParser, type FuzzParser } from "./harness.js";
import { PARSERS } from "./parsers.js";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("parsers of untrusted input", () => {
  it("the table names each entry point by a file of src/ that exists, and each parser once", () => {
    for (const parser of PARSERS) {
      const files = parser.entry.match(/src\/[\w/.-]+\.ts/g) ?? [];
      expect(files.length, parser.name).toBeGreaterThan(0);
      for (const file of files) expect(existsSync(path.join(ROOT, file)), `${parser.name}: ${file}`).toBe(true);
    }
    expect(new Set(PARSERS.map((p) => p.name)).size).toBe(PARSERS.length);
  });

  it.each(PARSERS.map((parser) => [parser.name, parser] as const))("%s: no un-named throw, every input within its time and heap budget", async (_name, parser) => {
    const tally = await fuzzParser(parser, { gc: "minor", maxFailures: 1 });
    expect(tally.tried).toBeGreaterThan(0);
    expect(tally.failures.map((failure) => describeFailure(tally, failure))).toEqual([]);
  }, 120_000);
});

describe("the harness", () => {
  const quick = <T>(parser: Partial<FuzzParser<T>> & Pick<FuzzParser<T>, "input" | "run">): FuzzParser<T> => ({ name: "probe", entry: "src/index.ts", budget: { ms: 200, heapMb: 32 }, runs: 20, ...parser });

  it("fails a parser that throws an error its callers do not name, and shows how to replay the input", async () => {
    const tally = await fuzzParser(quick({ input: fc.string(), run: (s: string) => (s.length > 2 ? (undefined as unknown as string[])[0] : s) }), { gc: "minor" });
    expect(tally.failures).toHaveLength(1);
    expect(tally.failures[0]!.problem).toMatch(/^threw TypeError: /);
    expect(describeFailure(tally, tally.failures[0]!)).toMatch(/replay: seed -?\d+, path \d+/);
  });

  it("passes a parser whose throws are all named", async () => {
    class Named extends Error {}
    const tally = await fuzzParser(quick({ input: fc.string(), run: () => { throw new Named("bad input"); }, named: (e) => e instanceof Named }), { gc: "minor" });
    expect(tally.failures).toEqual([]);
    expect(tally.tried).toBe(20);
  });

  it("fails a parser over its time budget, and one that keeps more heap than its budget", async () => {
    const slow = await fuzzParser(quick({ input: fc.constant(1), run: () => { const end = performance.now() + 250; while (performance.now() < end); } }), { gc: "minor" });
    expect(slow.failures[0]?.problem).toMatch(/^took \d+ ms, over its 200 ms budget$/);
    const hog = await fuzzParser(quick({ input: fc.constant(1), run: () => Array.from({ length: 2_000_000 }, (_, i) => ({ i })), budget: { ms: 60_000, heapMb: 32 }, runs: 2 }), { gc: "minor" });
    expect(hog.failures[0]?.problem).toMatch(/^grew the heap by [\d.]+ MB, over its 32 MB budget$/);
  });
});
