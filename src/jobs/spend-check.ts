/**
 * A job's monthly spend caps (installations/spend-caps.ts) where the job knows its repository's
 * config: how a cap reached ends the job, and the check made once the config is read.
 */
import type { CrewbotConfig } from "../config/schema.js";
import { checkCaps, type LimitReached } from "../installations/limits.js";
import type { SpendScope } from "../installations/spend-caps.js";
import { usageRepoKey, type UsageLedger } from "../installations/types.js";
import type { JobRecord } from "../queue/types.js";
import type { JobReport } from "./job-report.js";
import type { Ending } from "./outcome.js";
import type { JobServices } from "./services.js";

/** What a job's repository config says of its spend: `budgets.monthlyUsd`. */
export type CapConfig = { budgets: Pick<CrewbotConfig["budgets"], "monthlyUsd"> };

/** A monthly cap reached once the repository's config was read: the frame ends the job `⏸ Stopped` naming it. */
export class CapReached extends Error {
  constructor(readonly limit: LimitReached) {
    super(limit.reason);
  }
}

/** How a job that does not start ends: a monthly cap `⏸ Stopped` (nothing failed), any other limit `❌ Failed`. */
export function limitEnding(limit: LimitReached): Ending {
  return { terminal: limit.capped ? { kind: "stopped", budget: limit.reason } : { kind: "failed", reason: limit.reason }, patch: { spendNotice: undefined } };
}

/** Whose spend the job counts against: its installation and repository, with the repository's cap when known. */
export function spendScope(job: JobRecord, config?: CapConfig): SpendScope {
  const { installationId, owner, repo } = job.target;
  return { installationId, repo: usageRepoKey(owner, repo), repoCapUsd: config?.budgets.monthlyUsd };
}

/**
 * With the repository's config read, before anything is cloned or asked of a model: its monthly
 * cap (`budgets.monthlyUsd`) beside the installation's. Reached: thrown (CapReached), and the frame
 * ends the job; near (80 %): the notice on the job's comment — one field, so set twice it shows once.
 */
export async function checkSpend(job: JobRecord, services: JobServices, report: Pick<JobReport, "set"> | undefined, config: CapConfig): Promise<void> {
  const check = await checkCaps(services.operator.limits, services.operator.usage, spendScope(job, config));
  if (check.reached) throw new CapReached(check.reached);
  if (check.notice) report?.set({ spendNotice: check.notice });
}

/** How often a running job's spend so far is written to the ledger. */
export const SPEND_FLUSH_MS = 15_000;

/**
 * A running job's spend so far, written to the ledger every SPEND_FLUSH_MS (the same row its end
 * writes, overwritten): jobs starting meanwhile, on any process, count what it has spent already,
 * not only what ended jobs spent. `stop` ends the writes and waits for the one under way, so the
 * job's final figure, written after, is the one kept.
 */
export function spendWhileRunning(usage: Pick<UsageLedger, "recordCost">, job: JobRecord, repo: string | undefined, spent: () => number): { stop(): Promise<void> } {
  let recorded = 0;
  let writing: Promise<void> = Promise.resolve();
  const flush = () => {
    const now = spent();
    if (now <= recorded) return;
    recorded = now;
    writing = writing.then(() => usage.recordCost(job.target.installationId, job.id, now, repo)).catch(() => undefined);
  };
  const timer = setInterval(flush, SPEND_FLUSH_MS);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await writing;
    },
  };
}
