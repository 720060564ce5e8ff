/**
 * `npm run fuzz`: every parser of untrusted input (`test/fuzz/parsers.ts`) on many more hostile
 * inputs than `npm test` tries, a full collection before each so the heap figure is honest. Prints
 * one row per parser — inputs tried, failures, worst time, worst heap growth, each beside its
 * budget — then each failure with the input and how to replay it. Exits non-zero on any failure.
 *
 * `FUZZ_RUNS` (default 500) inputs per parser, at most `FUZZ_SECONDS` (default 30) each;
 * `FUZZ_ONLY=<name>[,<name>…]` runs only those; `FUZZ_SEED` replaces every parser's fixed seed.
 */
import { describeFailure, fuzzParser, type Tally } from "../test/fuzz/harness.js";
import { PARSERS } from "../test/fuzz/parsers.js";

const number = (name: string, fallback: number, least = 1): number => {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < least) throw new Error(`${name}: expected a whole number${least > 0 ? " over 0" : ""}, got ${JSON.stringify(raw)}`);
  return value;
};

function chosen(): typeof PARSERS {
  const only = (process.env.FUZZ_ONLY ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = only.filter((name) => !PARSERS.some((p) => p.name === name));
  if (unknown.length > 0) throw new Error(`FUZZ_ONLY: unknown parser ${unknown.join(", ")} (known: ${PARSERS.map((p) => p.name).join(", ")})`);
  return only.length === 0 ? PARSERS : PARSERS.filter((p) => only.includes(p.name));
}

const pad = (text: string, width: number) => text.padEnd(width);
const ms = (n: number) => (n >= 100 ? `${Math.round(n)} ms` : `${n.toFixed(1)} ms`);

function row(t: Tally): string {
  const mark = t.failures.length === 0 ? "✓" : "✗";
  return `| ${t.name} | ${t.tried} | ${t.failures.length} | ${ms(t.worstMs)} (≤ ${t.budget.ms} ms) | ${t.worstHeapMb.toFixed(1)} MB (≤ ${t.budget.heapMb} MB) | ${mark} |`;
}

async function main(): Promise<void> {
  const runs = number("FUZZ_RUNS", 500);
  const seconds = number("FUZZ_SECONDS", 30);
  // A seed is any whole number: the replay line of a failure may name a negative one.
  const seed = process.env.FUZZ_SEED ? number("FUZZ_SEED", 1, Number.MIN_SAFE_INTEGER) : undefined;
  const parsers = chosen();
  console.log(`fuzz: ${parsers.length} parsers, up to ${runs} inputs or ${seconds} s each${seed === undefined ? "" : `, seed ${seed}`}; heap: growth of heapUsed + external per input, after a full collection`);
  const tallies: Tally[] = [];
  for (const parser of parsers) {
    const started = performance.now();
    const tally = await fuzzParser(parser, { runs, seconds, gc: "full", maxFailures: 5, ...(seed === undefined ? {} : { seed }) });
    tallies.push(tally);
    console.log(`  ${pad(parser.name, 20)} ${tally.tried} inputs, ${tally.failures.length} failures, worst ${ms(tally.worstMs)}, ${tally.worstHeapMb.toFixed(1)} MB (${Math.round((performance.now() - started) / 1000)} s)`);
  }
  console.log("\n| parser | inputs tried | failures | worst time (budget) | worst heap growth (budget) | |\n|---|---|---|---|---|---|");
  for (const tally of tallies) console.log(row(tally));
  const failed = tallies.filter((t) => t.failures.length > 0);
  for (const tally of failed) for (const failure of tally.failures) console.log(`\n${describeFailure(tally, failure)}`);
  if (failed.length > 0) {
    console.log(`\n${failed.length} of ${tallies.length} parsers failed: ${failed.map((t) => t.name).join(", ")}`);
    process.exitCode = 1;
  }
}

await main();
