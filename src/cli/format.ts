import type { AgentEvent } from "../agent/events.js";
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

/** Running totals the progress lines carry, from the job's budget tracker. */
export interface Totals {
  usage: Usage;
  costUsd: number;
  estimate: boolean;
}

/**
 * One progress line per interesting event, or null for the ones too chatty to print.
 * Remembers the current turn per agent and each running tool's arguments, which later events lack.
 */
export class ProgressFormatter {
  private turn = new Map<string, number>();
  private toolArgs = new Map<string, string>();

  constructor(private readonly totals: () => Totals) {}

  format(event: AgentEvent): string | null {
    switch (event.type) {
      case "chain_start":
        return `chain ${event.chain}: ${event.steps.join(" → ")}`;
      case "run_start":
        return `[${event.agent}] start · ${event.model} · tools: ${event.tools.join(", ") || "none"}`;
      case "turn_start":
        this.turn.set(event.agent, event.turn);
        return null;
      case "tool_start":
        this.toolArgs.set(event.id, event.args);
        return null;
      case "tool_end": {
        const args = this.toolArgs.get(event.id) ?? event.name;
        this.toolArgs.delete(event.id);
        return `[${event.agent}] turn ${this.turn.get(event.agent) ?? 0} · ${args} · ${event.ok ? "ok" : "error"} ${event.ms}ms`;
      }
      case "usage": {
        const t = this.totals();
        return (
          `[${event.agent}] turn ${this.turn.get(event.agent) ?? 0} · ${formatTokens(event.usage.input + event.usage.cacheRead + event.usage.cacheWrite)} in ` +
          `(${formatTokens(event.usage.cacheRead)} cached) · ${formatTokens(event.usage.output)} out · ` +
          `total ${formatTokens(totalTokens(t.usage))} tokens ${formatCost(t.costUsd, t.estimate)}`
        );
      }
      case "compaction":
        return `[${event.agent}] context ${event.kind === "prune" ? "pruned" : "summarised"} at ${formatTokens(event.beforeTokens)} tokens`;
      case "log":
        return `${event.agent ? `[${event.agent}] ` : ""}${event.level}: ${event.message}`;
      case "run_end":
        return `[${event.agent}] ${event.stopReason === "done" ? "done" : `stopped (${event.stopReason}): ${event.error ?? ""}`.trim()}`;
      default:
        return null;
    }
  }
}
