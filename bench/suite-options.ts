/**
 * The command line the suite benches (`bench:tasks`, `bench:review`) share: runs, model,
 * concurrency, players, the per-attempt budgets and time-out, where results and tarballs go, and
 * `--check`. Each bench adds its own options; a bad number is refused, naming its flag.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { DEFAULT_BUDGETS, type Budgets } from "../src/agent/budget.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

const SHARED = {
  runs: { type: "string", default: "1" },
  model: { type: "string" },
  concurrency: { type: "string", default: "2" },
  player: { type: "string" },
  "max-turns": { type: "string" },
  "max-cost": { type: "string" },
  "max-minutes": { type: "string" },
  "timeout-minutes": { type: "string" },
  out: { type: "string" },
  tarballs: { type: "string" },
  check: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const satisfies Options;

/** `raw` as a positive number, `fallback` when not given. */
export function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got "${raw}"`);
  return n;
}

/** The shared options parsed, with the bench's own `extra` values beside them; `budgetDefaults` overrides the job defaults. */
export function suiteOptions<E extends Options>(extra: E, resultsDir: string, budgetDefaults: Partial<Budgets> = {}) {
  const { values } = parseArgs({ options: { ...SHARED, ...extra } });
  const v = values as Record<string, string | boolean | undefined>;
  const str = (name: string) => v[name] as string | undefined;
  const defaults = { ...DEFAULT_BUDGETS, ...budgetDefaults };
  const budgets: Budgets = {
    maxTurns: positive("max-turns", str("max-turns"), defaults.maxTurns),
    maxOutputTokens: defaults.maxOutputTokens,
    maxCostUsd: positive("max-cost", str("max-cost"), defaults.maxCostUsd),
    maxMinutes: positive("max-minutes", str("max-minutes"), defaults.maxMinutes),
  };
  return {
    values: v,
    help: v.help === true,
    check: v.check === true,
    runs: Math.floor(positive("runs", str("runs"), 1)),
    concurrency: Math.floor(positive("concurrency", str("concurrency"), 2)),
    model: str("model"),
    player: str("player"),
    budgets,
    // crewbot stops itself at maxMinutes; the margin covers its clean-up and the grading.
    timeoutMs: positive("timeout-minutes", str("timeout-minutes"), budgets.maxMinutes + 5) * 60_000,
    out: str("out"),
    tarballs: str("tarballs") ?? path.join(resultsDir, "tarballs"),
  };
}

/** Writes a run's results as JSON (`out`, else a dated file in `resultsDir`) and says where. */
export async function writeResults(out: string | undefined, resultsDir: string, name: string, report: unknown): Promise<void> {
  const file = out ?? path.join(resultsDir, `${name}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwrote ${path.relative(process.cwd(), file)}`);
}

/** Runs a bench's main and exits with its code; an error is one line naming the bench. */
export function runBench(name: string, main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`${name}: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
