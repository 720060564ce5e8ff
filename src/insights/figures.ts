/** The figures of `types.ts` computed from a repository's kept events (events.ts). Pure. */
import type { EndCounts, InsightEvent } from "./events.js";
import type { JobKind } from "../queue/job-kinds.js";
import type { FindingEnds, Figures, Rates, WeekFigures } from "./types.js";

export const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** The job kind whose cost a review's cost is. */
const REVIEW_KIND: JobKind = "review";

/** Sums of US dollars, rid of floating-point dust (a millionth of a dollar is below any price). */
const usd = (n: number): number => Math.round(n * 1e6) / 1e6;

const noEnds = (): FindingEnds => ({ posted: 0, fixed: 0, dismissed: 0, open: 0 });

function addEnds(sum: FindingEnds, e: EndCounts): void {
  sum.fixed += e.fixed;
  sum.dismissed += e.dismissed;
  sum.open += e.open;
  sum.posted += e.fixed + e.dismissed + e.open;
}

const ratio = (n: number, d: number): number | null => (d > 0 ? n / d : null);

/** Resolution over the merged pull requests' findings, dismissal over every ended one's. */
function rates(merged: FindingEnds, ended: FindingEnds): Rates {
  return { resolution: ratio(merged.fixed, merged.posted), dismissal: ratio(ended.dismissed, ended.posted) };
}

/** The middle value; the mean of the two middle ones for an even count; null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const inc = (counts: Record<string, number>, key: string, by = 1): void => {
  counts[key] = (counts[key] ?? 0) + by;
};

/** The figures of the events with `at` in [from, to) (others are ignored). */
export function figuresOf(events: readonly InsightEvent[], from: number, to: number): Figures {
  const ends = { reproduced: noEnds(), unverified: noEnds() };
  const merged = { reproduced: noEnds(), unverified: noEnds() };
  const byKindUsd: Record<string, number> = {};
  const jobs = { byKind: {} as Record<string, number>, byOutcome: {} as Record<string, number> };
  const waits: number[] = [];
  let reviews = 0;
  let findingsPosted = 0;
  let totalUsd = 0;
  for (const e of events) {
    if (e.at < from || e.at >= to) continue;
    if (e.type === "job") {
      totalUsd += e.costUsd;
      inc(byKindUsd, e.kind, e.costUsd);
      inc(jobs.byKind, e.kind);
      inc(jobs.byOutcome, e.state);
    } else if (e.type === "review") {
      reviews += 1;
      findingsPosted += e.findings.reproduced + e.findings.unverified;
    } else if (e.type === "first-review") {
      if (e.openedAt !== undefined && e.openedAt <= e.at) waits.push((e.at - e.openedAt) / 1000);
    } else {
      for (const k of ["reproduced", "unverified"] as const) {
        addEnds(ends[k], e.ends[k]);
        if (e.merged) addEnds(merged[k], e.ends[k]);
      }
    }
  }
  const both = (pair: { reproduced: FindingEnds; unverified: FindingEnds }): FindingEnds => {
    const sum = noEnds();
    addEnds(sum, pair.reproduced);
    addEnds(sum, pair.unverified);
    return sum;
  };
  for (const kind of Object.keys(byKindUsd)) byKindUsd[kind] = usd(byKindUsd[kind]!);
  return {
    from,
    to,
    reviews,
    findingsPosted,
    ends,
    rates: { reproduced: rates(merged.reproduced, ends.reproduced), unverified: rates(merged.unverified, ends.unverified), all: rates(both(merged), both(ends)) },
    cost: { totalUsd: usd(totalUsd), perReviewUsd: reviews > 0 ? usd((byKindUsd[REVIEW_KIND] ?? 0) / reviews) : null, byKindUsd },
    firstReviewSeconds: { median: median(waits), count: waits.length },
    jobs,
  };
}

/** Monday 00:00 UTC of the week holding `at`. */
export function weekStart(at: number): number {
  const day = new Date(at);
  const midnight = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  return midnight - ((day.getUTCDay() + 6) % 7) * DAY_MS;
}

/**
 * One entry per week overlapping [from, to), oldest first, empty weeks included; each week's period
 * is the week clipped to [from, to), so the weeks add up to the figures of the whole range.
 */
export function weeksOf(events: readonly InsightEvent[], from: number, to: number): WeekFigures[] {
  const weeks: WeekFigures[] = [];
  for (let start = weekStart(from); start < to; start += WEEK_MS) {
    const figures = figuresOf(events, Math.max(start, from), Math.min(start + WEEK_MS, to));
    weeks.push({ ...figures, week: new Date(start).toISOString().slice(0, 10) });
  }
  return weeks;
}
