/**
 * The monthly spend caps: the installation's (`CREWBOT_MONTHLY_BUDGET_USD`, the operator's) and a
 * repository's (`budgets.monthlyUsd`, its config), each a row of CAPS. Both count what the ledger
 * holds — every process's jobs — since the first of the calendar month (UTC). The nearer cap (the
 * larger share used) speaks: at 80 % in a notice on the job, at 100 % in the job's refusal. A
 * repository's cap above the installation's changes nothing: the installation's counts, and its
 * words say so.
 */
import type { UsageLedger } from "./types.js";

/** Whose spend a job counts against: its installation, and its repository (`owner/repo`, lower-cased) with that repository's cap. */
export interface SpendScope {
  installationId: number;
  repo?: string;
  /** `budgets.monthlyUsd`; null or undefined: none (or not known yet: the config is read later). */
  repoCapUsd?: number | null;
}

/** Where a cap stands this month. */
export interface CapStanding {
  row: CapRow;
  limitUsd: number;
  spentUsd: number;
  /** The first of next month (UTC), epoch ms: when the cap counts from zero again. */
  resetsAt: number;
  /** The repository's own cap when it is above the installation's (which then counts instead). */
  repoCapAbove?: number;
}

interface CapRow {
  /** "repository" or "installation", for people: "this repository has used …". */
  what: string;
  /** Where the cap is set, as people write it. */
  setting: string;
  limit(scope: SpendScope, installationCapUsd: number | undefined): number | undefined;
  spent(ledger: UsageLedger, scope: SpendScope, since: number): Promise<number>;
}

/** The caps, most specific first (the first of two at the same share speaks). */
const CAPS: readonly CapRow[] = [
  {
    what: "repository",
    setting: "budgets.monthlyUsd",
    limit: (scope) => (scope.repo !== undefined ? (scope.repoCapUsd ?? undefined) : undefined),
    spent: (ledger, scope, since) => ledger.costSince(scope.installationId, since, scope.repo),
  },
  {
    what: "installation",
    setting: "CREWBOT_MONTHLY_BUDGET_USD",
    limit: (_scope, installationCapUsd) => installationCapUsd,
    spent: (ledger, scope, since) => ledger.costSince(scope.installationId, since),
  },
];

/** At this share of a cap a job's comment says how near it is. */
export const NOTICE_SHARE = 0.8;

/** Start of the calendar month (UTC) that `now` is in. */
export function monthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** Start of the calendar month (UTC) after the one `now` is in: when the caps reset. */
export function nextMonthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "1 January 2027": a UTC day in words, the same whatever the server's locale. */
export function utcDay(at: number): string {
  const d = new Date(at);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** The cap nearest its end this month (the largest share used); undefined when no cap is set. */
export async function nearestCap(ledger: UsageLedger, scope: SpendScope, installationCapUsd: number | undefined, now: number): Promise<CapStanding | undefined> {
  const since = monthStart(now);
  let nearest: CapStanding | undefined;
  for (const row of CAPS) {
    const limitUsd = row.limit(scope, installationCapUsd);
    if (limitUsd === undefined) continue;
    const spentUsd = await row.spent(ledger, scope, since);
    if (nearest === undefined || spentUsd / limitUsd > nearest.spentUsd / nearest.limitUsd) nearest = { row, limitUsd, spentUsd, resetsAt: nextMonthStart(now) };
  }
  const repoCap = scope.repoCapUsd ?? undefined;
  if (nearest && nearest.row.what === "installation" && repoCap !== undefined && repoCap > nearest.limitUsd) nearest.repoCapAbove = repoCap;
  return nearest;
}

const usd = (n: number) => `$${n.toFixed(2)}`;

/** "($42.00 of $50.00, `budgets.monthlyUsd`)", with a repository's cap that does not count named. */
function figures(s: CapStanding): string {
  const above = s.repoCapAbove !== undefined ? `; this repository's \`budgets.monthlyUsd\` (${usd(s.repoCapAbove)}) is above it, so the installation's counts` : "";
  return `(${usd(s.spentUsd)} of ${usd(s.limitUsd)}, \`${s.row.setting}\`${above})`;
}

export const capReached = (s: CapStanding): boolean => s.spentUsd >= s.limitUsd;

/** The notice on a job at 80 % or more of the nearer cap (below 100 %); undefined otherwise. */
export function capNotice(s: CapStanding | undefined): string | undefined {
  if (!s || capReached(s) || s.spentUsd < NOTICE_SHARE * s.limitUsd) return undefined;
  const percent = Math.floor((s.spentUsd / s.limitUsd) * 100);
  return `⚠️ This ${s.row.what} has used ${percent} % of its monthly budget ${figures(s)}; it resets on ${utcDay(s.resetsAt)} (UTC).`;
}

/** Why a new job does not start, the cap reached; undefined while it is not. */
export function capRefusal(s: CapStanding | undefined): string | undefined {
  if (!s || !capReached(s)) return undefined;
  return `this ${s.row.what} has used its monthly budget ${figures(s)}; new jobs start again on ${utcDay(s.resetsAt)} (UTC)`;
}
