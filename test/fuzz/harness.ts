/**
 * Runs one parser of untrusted input on fast-check's inputs and holds it to its contract: no throw
 * but a named error, each input within the time budget and the heap budget. The short run is part
 * of `npm test` (`fuzz.test.ts`); `npm run fuzz` (`bench/fuzz.ts`) runs the same table longer.
 *
 * Heap is measured per input as the growth of `heapUsed + external` from just before the input to
 * just after it, the parser's result still held: what the parser keeps counts, and so does garbage
 * not yet collected (an upper bound on what it retains; a lower bound on its peak, since a
 * collection during the input hides what it freed). Before each input the collector runs — a full
 * collection in `npm run fuzz`, a minor one in the short run, where a full one per input costs too much.
 */
import { createHash } from "node:crypto";
import v8 from "node:v8";
import vm from "node:vm";
import fc from "fast-check";
import { describeInput } from "./hostile.js";

export interface Budget {
  /** The longest one input may take, wall time, in milliseconds. */
  ms: number;
  /** The most the heap (with external memory) may grow for one input, in MB. */
  heapMb: number;
}

export interface FuzzParser<T = any> {
  name: string;
  /** The function in `src/` that reads the stranger's bytes, and from whom they come. */
  entry: string;
  input: fc.Arbitrary<T>;
  /** Feeds one input to the entry point (and to what reads its result right after, when that is where input is still parsed). */
  run(input: T): unknown;
  /** The errors the callers catch and turn into words; any other throw is a failure. Absent: nothing may throw. */
  named?: (error: unknown) => boolean;
  budget: Budget;
  /** Inputs in the short run of `npm test`. */
  runs: number;
  /** A short description of an input for a failure message (default: its start and size). */
  show?: (input: T) => string;
}

export interface RunOptions {
  /** Inputs to try (the parser's `runs` when absent). */
  runs?: number;
  /** Stop trying after this long, in seconds. */
  seconds?: number;
  /** Overrides the parser's fixed seed (to explore other inputs). */
  seed?: number;
  /** Stop after this many failing inputs (1: the short run stops at the first). */
  maxFailures?: number;
  /** A full collection before each input (honest, slow) or a minor one (cheap). */
  gc: "full" | "minor";
}

export interface Failure {
  /** fast-check's seed and path: `fc.check(…, { seed, path })` replays exactly this input. */
  seed: number;
  path: string;
  problem: string;
  input: string;
}

export interface Tally {
  name: string;
  entry: string;
  seed: number;
  tried: number;
  failures: Failure[];
  worstMs: number;
  worstHeapMb: number;
  budget: Budget;
}

/** Each parser's own fixed seed, from its name: the same inputs on every machine, every run. */
export const seedOf = (name: string): number => createHash("sha256").update(name).digest().readInt32BE(0);

let exposedGc: ((options?: { type: "major" | "minor" }) => void) | undefined;

/** The collector, without starting node with `--expose-gc`. */
function collector(): (options?: { type: "major" | "minor" }) => void {
  if (exposedGc) return exposedGc;
  const existing = (globalThis as { gc?: typeof exposedGc }).gc;
  if (existing) return (exposedGc = existing);
  v8.setFlagsFromString("--expose-gc");
  return (exposedGc = vm.runInNewContext("gc") as typeof exposedGc & object);
}

const usedBytes = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};

const MB = 1024 * 1024;

/** What one input did: its time, its heap growth, and what it threw (undefined: nothing). */
async function measure(run: () => unknown, gc: RunOptions["gc"]): Promise<{ ms: number; heapMb: number; thrown: unknown; threw: boolean }> {
  collector()(gc === "full" ? undefined : { type: "minor" });
  const before = usedBytes();
  const started = performance.now();
  let result: unknown;
  let thrown: unknown;
  let threw = false;
  try {
    result = await run();
  } catch (error) {
    thrown = error;
    threw = true;
  }
  const ms = performance.now() - started;
  const heapMb = Math.max(0, usedBytes() - before) / MB;
  // Held until measured, so what the parser keeps is counted.
  void (result as { length?: number } | undefined)?.length;
  return { ms, heapMb, thrown, threw };
}

const errorWords = (error: unknown) => (error instanceof Error ? `${error.constructor.name}: ${error.message.split("\n")[0]!.slice(0, 200)}` : `a thrown ${typeof error}: ${String(error).slice(0, 200)}`);

/** Why one input broke the contract, or undefined when it held. */
function problemOf(parser: FuzzParser, m: Awaited<ReturnType<typeof measure>>): string | undefined {
  if (m.threw && !parser.named?.(m.thrown)) return `threw ${errorWords(m.thrown)}${parser.named ? " (not a named error)" : ""}`;
  if (m.ms > parser.budget.ms) return `took ${Math.round(m.ms)} ms, over its ${parser.budget.ms} ms budget`;
  if (m.heapMb > parser.budget.heapMb) return `grew the heap by ${m.heapMb.toFixed(1)} MB, over its ${parser.budget.heapMb} MB budget`;
  return undefined;
}

class EnoughFailures extends Error {}

/** Runs one parser; never throws for the parser's sake: its failures are in the tally. */
export async function fuzzParser<T>(parser: FuzzParser<T>, options: RunOptions): Promise<Tally> {
  const seed = options.seed ?? seedOf(parser.name);
  const tally: Tally = { name: parser.name, entry: parser.entry, seed, tried: 0, failures: [], worstMs: 0, worstHeapMb: 0, budget: parser.budget };
  const maxFailures = options.maxFailures ?? 1;
  let inFlight: Promise<unknown> = Promise.resolve();
  const property = fc.asyncProperty(parser.input, async (input) => {
    const index = tally.tried++;
    const measured = measure(() => parser.run(input), options.gc);
    inFlight = measured;
    const m = await measured;
    tally.worstMs = Math.max(tally.worstMs, m.ms);
    tally.worstHeapMb = Math.max(tally.worstHeapMb, m.heapMb);
    const problem = problemOf(parser, m);
    if (!problem) return;
    tally.failures.push({ seed, path: String(index), problem, input: (parser.show ?? describeInput)(input) });
    if (tally.failures.length >= maxFailures) throw new EnoughFailures();
  });
  const details = await fc.check(property, {
    seed,
    numRuns: options.runs ?? parser.runs,
    endOnFailure: true,
    ...(options.seconds ? { interruptAfterTimeLimit: options.seconds * 1000, markInterruptAsFailure: false } : {}),
  });
  // A time limit ends the check without waiting for the input then running: it ends here, before the
  // next parser starts (it would run beside it and slow it), and its figures are in this tally.
  await inFlight.catch(() => undefined);
  // A failure of the harness itself (or of an arbitrary) is not the parser's: it is thrown.
  if (details.failed && !(details.errorInstance instanceof EnoughFailures)) throw details.errorInstance ?? new Error(`fast-check stopped: ${details.interrupted ? "interrupted" : "too many skipped inputs"}`);
  return tally;
}

/** One failure as the test prints it: the parser, the problem, the input, and how to replay it. */
export function describeFailure(tally: Tally, failure: Failure): string {
  return `${tally.name} (${tally.entry}): ${failure.problem}\n  input: ${failure.input}\n  replay: seed ${failure.seed}, path ${failure.path} (FUZZ_ONLY="${tally.name}" npm run fuzz tries the same inputs)`;
}
