import type { AgentEvent } from "../agent/events.js";
import type { Usage } from "../agent/pricing.js";
import { formatCost, formatDuration, formatTokens, totalTokens } from "../report/format.js";

// Moved to src/report (the progress comment needs them too); re-exported for existing imports.
export { formatCost, formatDuration, formatTokens, totalTokens } from "../report/format.js";

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
    // A parallel step's agents run at once, often the same agent: each line (and turn count) names its item.
    if (event.item !== undefined && "agent" in event && event.agent) return this.format({ ...event, agent: `${event.agent}#${event.item}`, item: undefined });
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
      case "model_wait":
        return `[${event.agent}] waiting for the model: ${event.reason} · try ${event.attempt + 1} in ${formatDuration(event.waitMs)}`;
      case "rule_interrupt":
        return `[${event.agent}] turn ${event.turn} · rule ${event.rule} stopped the reply (~${formatTokens(event.droppedTokens)} out dropped); its instructions were sent`;
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
