/**
 * A job's monthly spend caps (installations/spend-caps.ts) where the job knows its repository's
 * config: how a cap reached ends the job, and the check made once the config is read.
 */
import type { CrewbotConfig } from "../config/schema.js";
import { checkCaps, type LimitReached } from "../installations/limits.js";
import type { SpendScope } from "../installations/spend-caps.js";
import { usageRepoKey } from "../installations/types.js";
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
