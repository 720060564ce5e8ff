import type { BudgetName } from "./events.js";
import { addUsage, costOf, emptyUsage, type Usage } from "./pricing.js";

/** Per job, all agents together (DESIGN §5 `budgets`). */
export interface Budgets {
  maxTurns: number;
  maxOutputTokens: number;
  maxCostUsd: number;
  maxMinutes: number;
}

/**
 * The job's turn budget is above the bundled chains' agents' own caps together (the longest,
 * implement-and-review, is 20 + 25 + 50 + 25 + 50 = 170), so a bundled chain ends on an agent's
 * `maxTurns`, never on the job's; the output tokens leave the same room. What stops a whole job
 * is its cost and its time.
 */
export const DEFAULT_BUDGETS: Budgets = { maxTurns: 200, maxOutputTokens: 400_000, maxCostUsd: 3, maxMinutes: 30 };

/** Shared by every agent of a job, so the limits hold for the chain as a whole. */
export class BudgetTracker {
  turns = 0;
  usage: Usage = emptyUsage();
  costUsd = 0;
  /** True once any reply was priced from a guess (model not in the table). */
  estimate = false;
  readonly startedAt: number;

  constructor(
    readonly limits: Budgets,
    private readonly now: () => number = Date.now,
  ) {
    this.startedAt = now();
  }

  addTurn(): void {
    this.turns += 1;
  }

  /** Records one reply's usage; returns its cost. */
  addUsage(model: string, usage: Usage): { usd: number; estimate: boolean } {
    const cost = costOf(model, usage);
    this.usage = addUsage(this.usage, usage);
    this.costUsd += cost.usd;
    this.estimate ||= cost.estimate;
    return cost;
  }

  /** The first budget used up, if any; checked before every turn. */
  exceeded(): BudgetName | undefined {
    if (this.turns >= this.limits.maxTurns) return "maxTurns";
    if (this.usage.output >= this.limits.maxOutputTokens) return "maxOutputTokens";
    if (this.costUsd >= this.limits.maxCostUsd) return "maxCostUsd";
    if (this.remainingMs() <= 0) return "maxMinutes";
    return undefined;
  }

  remainingOutputTokens(): number {
    return Math.max(0, this.limits.maxOutputTokens - this.usage.output);
  }

  remainingMs(): number {
    return this.startedAt + this.limits.maxMinutes * 60_000 - this.now();
  }

  elapsedMs(): number {
    return this.now() - this.startedAt;
  }
}

export function describeBudget(name: BudgetName, limits: Budgets): string {
  switch (name) {
    case "maxTurns":
      return `turn budget reached (${limits.maxTurns} turns)`;
    case "maxOutputTokens":
      return `output-token budget reached (${limits.maxOutputTokens} tokens)`;
    case "maxCostUsd":
      return `cost budget reached ($${limits.maxCostUsd.toFixed(2)})`;
    case "maxMinutes":
      return `time budget reached (${limits.maxMinutes} min)`;
  }
}
