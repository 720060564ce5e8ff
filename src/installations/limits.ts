/**
 * The operator's limits per installation (environment, not repository config: the operator
 * pays). Concurrency is the queue's; jobs per hour and the monthly caps (spend-caps.ts) are checked
 * when a job starts, and the job's comment (or check run) names the limit.
 */
import { capNotice, capRefusal, nearestCap, type SpendScope } from "./spend-caps.js";
import type { UsageLedger } from "./types.js";

export { monthStart } from "./spend-caps.js";

export interface OperatorLimits {
  /** Jobs running at once per installation (`CREWBOT_INSTALLATION_CONCURRENCY`, default 2). */
  perInstallation: number;
  /** Jobs running at once in one process (`CREWBOT_WORKER_CONCURRENCY`, default 4): more workers, more capacity. */
  perWorker: number;
  /** Jobs running at once across every worker sharing the queue (`CREWBOT_GLOBAL_CONCURRENCY`); unset = no limit but the workers'. */
  global?: number;
  /** Jobs started per installation in any hour (`CREWBOT_JOBS_PER_HOUR`); unset = no limit. */
  jobsPerHour?: number;
  /** USD per installation per calendar month, UTC (`CREWBOT_MONTHLY_BUDGET_USD`); unset = no limit. */
  monthlyBudgetUsd?: number;
  /** Least time between two edits of one progress comment (`CREWBOT_EDIT_INTERVAL_S`, default 10 s). */
  editIntervalMs?: number;
  /** One person's commands per installation at once (`CREWBOT_COMMANDS_BURST`, default 20)… */
  commandsBurst?: number;
  /** …then this many a minute (`CREWBOT_COMMANDS_PER_MINUTE`, default 10). */
  commandsPerMinute?: number;
  /** Ended jobs, deliveries, review records, transcripts, artifacts and unused mirrors older than this are deleted (`CREWBOT_RETENTION_DAYS`, default 30). */
  retentionDays?: number;
}

const VARIABLES = {
  perInstallation: "CREWBOT_INSTALLATION_CONCURRENCY",
  perWorker: "CREWBOT_WORKER_CONCURRENCY",
  global: "CREWBOT_GLOBAL_CONCURRENCY",
  jobsPerHour: "CREWBOT_JOBS_PER_HOUR",
  monthlyBudgetUsd: "CREWBOT_MONTHLY_BUDGET_USD",
  editIntervalS: "CREWBOT_EDIT_INTERVAL_S",
  commandsBurst: "CREWBOT_COMMANDS_BURST",
  commandsPerMinute: "CREWBOT_COMMANDS_PER_MINUTE",
  retentionDays: "CREWBOT_RETENTION_DAYS",
} as const;

function positive(env: NodeJS.ProcessEnv, name: string, integer: boolean): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new Error(`${name} must be a ${integer ? "whole " : ""}number above 0, got "${raw}"`);
  }
  return value;
}

/** The limits from the environment; a bad value stops the app with the variable's name. */
export function operatorLimits(env: NodeJS.ProcessEnv): OperatorLimits {
  return {
    perInstallation: positive(env, VARIABLES.perInstallation, true) ?? 2,
    perWorker: positive(env, VARIABLES.perWorker, true) ?? 4,
    global: positive(env, VARIABLES.global, true),
    jobsPerHour: positive(env, VARIABLES.jobsPerHour, true),
    monthlyBudgetUsd: positive(env, VARIABLES.monthlyBudgetUsd, false),
    editIntervalMs: (positive(env, VARIABLES.editIntervalS, false) ?? 10) * 1000,
    commandsBurst: positive(env, VARIABLES.commandsBurst, true) ?? 20,
    commandsPerMinute: positive(env, VARIABLES.commandsPerMinute, false) ?? 10,
    retentionDays: positive(env, VARIABLES.retentionDays, false) ?? 30,
  };
}

/** A limit that stops a new job: its words, and whether it is a monthly cap (the job ends `⏸ Stopped`, an automatic review's check `neutral`). */
export interface LimitReached {
  reason: string;
  capped: boolean;
}

/** What the limits say of a new job: a limit reached, or a notice that a monthly cap is near (80 %). */
export interface LimitCheck {
  reached?: LimitReached;
  notice?: string;
}

/** The limits on a new job of the installation (and repository, with its cap when known): jobs per hour first, then the nearer monthly cap. */
export async function checkLimits(limits: OperatorLimits, ledger: UsageLedger, scope: SpendScope, now = Date.now()): Promise<LimitCheck> {
  if (limits.jobsPerHour !== undefined) {
    const started = await ledger.jobsSince(scope.installationId, now - 3_600_000);
    if (started >= limits.jobsPerHour) {
      return { reached: { reason: `this installation reached its limit of ${limits.jobsPerHour} jobs per hour (${VARIABLES.jobsPerHour}); try again later`, capped: false } };
    }
  }
  return checkCaps(limits, ledger, scope, now);
}

/** The monthly caps alone (the job's start is counted already, or the repository's cap is known only now). */
export async function checkCaps(limits: Pick<OperatorLimits, "monthlyBudgetUsd">, ledger: UsageLedger, scope: SpendScope, now = Date.now()): Promise<LimitCheck> {
  const standing = await nearestCap(ledger, scope, limits.monthlyBudgetUsd, now);
  const refusal = capRefusal(standing);
  if (refusal) return { reached: { reason: refusal, capped: true } };
  const notice = capNotice(standing);
  return notice ? { notice } : {};
}
