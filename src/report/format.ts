/** Number formats shared by the progress comment and the CLI's progress lines. */
import type { Usage } from "../agent/pricing.js";

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

export function formatCost(usd: number, estimate = false): string {
  const text = usd < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
  return estimate ? `~${text} (estimate)` : text;
}

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
}

export function totalTokens(usage: Usage): number {
  return usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** What a run took: `1m 05s · 12.3k tokens · $0.0123` — the same line everywhere crewbot reports. */
export function formatFigures(run: { elapsedMs: number; usage: Usage; costUsd: number; estimate: boolean }): string {
  return [formatDuration(run.elapsedMs), `${formatTokens(totalTokens(run.usage))} tokens`, formatCost(run.costUsd, run.estimate)].join(" · ");
}
