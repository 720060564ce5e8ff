/**
 * `BENCH_ONLY=<name>[,<name>…] npm run bench` runs only the named benches (all when unset):
 * chain, cache, overload, checkout, ack, plan, implement, review, summary, throughput, edits, ci-fix, ci-fix-head, plan-wide, ask, ask-answer, deps, shared-budget, budget-workers.
 */
export const BENCH_NAMES = ["chain", "cache", "overload", "checkout", "ack", "plan", "implement", "review", "summary", "throughput", "edits", "ci-fix", "ci-fix-head", "plan-wide", "ask", "ask-answer", "deps", "shared-budget", "budget-workers"] as const;
export type BenchName = (typeof BENCH_NAMES)[number];

const only = (process.env.BENCH_ONLY ?? "")
  .split(",")
  .map((s) => s.trim().toLowerCase())
  .filter(Boolean);
const unknown = only.filter((name) => !(BENCH_NAMES as readonly string[]).includes(name));
if (unknown.length > 0) throw new Error(`BENCH_ONLY: unknown bench ${unknown.join(", ")} (known: ${BENCH_NAMES.join(", ")})`);

export const selected = (name: BenchName): boolean => only.length === 0 || only.includes(name);
