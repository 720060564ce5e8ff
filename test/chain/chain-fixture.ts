import { BudgetTracker, DEFAULT_BUDGETS } from "../../src/agent/budget.js";
import type { AgentRunResult } from "../../src/agent/types.js";
import type { RunChainOptions } from "../../src/chain/run-chain.js";
import { tempDir } from "../helpers/git-repo.js";

/**
 * What `runChain` needs in a test: one fresh folder as checkout, artifacts and scratch, read-only,
 * no sandbox, a fresh budget and a client nobody calls; `over` replaces any of it.
 */
export async function chainOptions(over: Pick<RunChainOptions, "chain" | "agents"> & Partial<RunChainOptions>): Promise<RunChainOptions> {
  const dir = await tempDir();
  return {
    task: "the request",
    mode: "read-only",
    workspace: { root: dir, artifactsDir: dir, scratchDir: dir },
    sandbox: { available: false, reason: "test" },
    budget: new BudgetTracker(DEFAULT_BUDGETS),
    client: {} as never,
    ...over,
    trust: over.trust ?? "trusted",
  };
}

/** An agent that finished with `text`, at almost no cost. */
export const agentResult = (text: string, extra: Partial<AgentRunResult> = {}): AgentRunResult => ({
  stopReason: "done",
  text,
  turns: 1,
  usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
  costUsd: 0,
  estimate: false,
  filesRead: [],
  filesChanged: [],
  ...extra,
});
