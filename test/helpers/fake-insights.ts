/**
 * An InsightsSource for the pages' tests: realistic weeks made up from the repository's name and
 * the week (the same every run), with the gaps production has — a quiet week where nothing merged
 * (every rate null, no review), a week without a reproduced finding (its rates null) — and every
 * call recorded, so a test can say which repositories' figures were read.
 */
import type { FindingEnds, Figures, InsightsSource, Rates, WeekFigures } from "../../src/insights/types.js";

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

const mondayOf = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
};

/** A small seeded generator (mulberry32): numbers that look measured and never change. */
function random(seed: string): () => number {
  let h = 1779033703;
  for (const c of seed) h = Math.imul(h ^ c.charCodeAt(0), 3432918353);
  return () => {
    h = (h + 0x6d2b79f5) | 0;
    let t = Math.imul(h ^ (h >>> 15), 1 | h);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : null);
const rates = (e: FindingEnds): Rates => ({ resolution: ratio(e.fixed, e.posted), dismissal: ratio(e.dismissed, e.posted) });
const zeroEnds = (): FindingEnds => ({ posted: 0, fixed: 0, dismissed: 0, open: 0 });

function ends(rand: () => number, posted: number, fixedShare: number, dismissedShare: number): FindingEnds {
  const fixed = Math.round(posted * (fixedShare + (rand() - 0.5) * 0.2));
  const dismissed = Math.min(posted - fixed, Math.round(posted * (dismissedShare + (rand() - 0.5) * 0.1)));
  return { posted, fixed, dismissed, open: posted - fixed - dismissed };
}

function add(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, v] of Object.entries(from)) into[k] = Math.round(((into[k] ?? 0) + v) * 10_000) / 10_000;
}

/** One week of a busy repository; the week's number in the year decides the gaps. */
export function madeUpWeek(repo: string, monday: number): WeekFigures {
  const rand = random(`${repo.toLowerCase()} ${monday}`);
  const n = Math.floor(monday / WEEK_MS);
  const empty = blank(monday);
  if (n % 9 === 4) return empty; // a holiday: nothing ran
  const reviews = 8 + Math.floor(rand() * 22);
  const reproduced = n % 5 === 2 ? zeroEnds() : ends(rand, 3 + Math.floor(rand() * 7), 0.78, 0.12);
  const unverified = ends(rand, 6 + Math.floor(rand() * 16), 0.48, 0.22);
  const all = { posted: reproduced.posted + unverified.posted, fixed: reproduced.fixed + unverified.fixed, dismissed: reproduced.dismissed + unverified.dismissed, open: reproduced.open + unverified.open };
  const implement = n % 3 === 0 ? 0 : 1 + Math.floor(rand() * 4);
  const byKindUsd: Record<string, number> = { review: Math.round(reviews * (0.28 + rand() * 0.15) * 100) / 100 };
  if (implement) byKindUsd.implement = Math.round(implement * (0.9 + rand() * 0.8) * 100) / 100;
  byKindUsd.plan = Math.round((0.2 + rand() * 0.6) * 100) / 100;
  byKindUsd["ci-fix"] = Math.round(rand() * 0.5 * 100) / 100;
  const totalUsd = Object.values(byKindUsd).reduce((a, b) => a + b, 0);
  const jobs = reviews + implement + 2;
  const failed = Math.floor(rand() * 3);
  const cancelled = Math.floor(rand() * 2);
  return {
    ...empty,
    reviews,
    findingsPosted: Math.round(reviews * (1.2 + rand())),
    ends: { reproduced, unverified },
    rates: { reproduced: rates(reproduced), unverified: rates(unverified), all: rates(all) },
    cost: { totalUsd: Math.round(totalUsd * 100) / 100, perReviewUsd: byKindUsd.review! / reviews, byKindUsd },
    firstReviewSeconds: { median: Math.round(240 + rand() * 1500), count: Math.max(1, reviews - 3) },
    jobs: { byKind: { review: reviews, implement, plan: 1, "ci-fix": 1 }, byOutcome: { succeeded: jobs - failed - cancelled, failed, cancelled } },
  };
}

/** The period's figures as the sum of its weeks (the fake's approximation of a period). */
export function sumOf(weeks: WeekFigures[], from: number, to: number): Figures {
  const sum = (f: (w: WeekFigures) => number) => weeks.reduce((a, w) => a + f(w), 0);
  const endsOf = (which: "reproduced" | "unverified"): FindingEnds => ({
    posted: sum((w) => w.ends[which].posted), fixed: sum((w) => w.ends[which].fixed), dismissed: sum((w) => w.ends[which].dismissed), open: sum((w) => w.ends[which].open),
  });
  const reproduced = endsOf("reproduced");
  const unverified = endsOf("unverified");
  const all = { posted: reproduced.posted + unverified.posted, fixed: reproduced.fixed + unverified.fixed, dismissed: reproduced.dismissed + unverified.dismissed, open: 0 };
  const byKindUsd: Record<string, number> = {};
  const byKind: Record<string, number> = {};
  const byOutcome: Record<string, number> = {};
  for (const w of weeks) {
    add(byKindUsd, w.cost.byKindUsd);
    add(byKind, w.jobs.byKind);
    add(byOutcome, w.jobs.byOutcome);
  }
  const reviews = sum((w) => w.reviews);
  const medians = weeks.map((w) => w.firstReviewSeconds.median).filter((m): m is number => m !== null).sort((a, b) => a - b);
  return {
    from, to, reviews, findingsPosted: sum((w) => w.findingsPosted),
    ends: { reproduced, unverified },
    rates: { reproduced: rates(reproduced), unverified: rates(unverified), all: rates(all) },
    cost: { totalUsd: sum((w) => w.cost.totalUsd), perReviewUsd: reviews ? (byKindUsd.review ?? 0) / reviews : null, byKindUsd },
    firstReviewSeconds: { median: medians.length ? medians[Math.floor(medians.length / 2)]! : null, count: sum((w) => w.firstReviewSeconds.count) },
    jobs: { byKind, byOutcome },
  };
}

export class FakeInsights implements InsightsSource {
  /** Which repositories' figures were read, as asked (`figures acme/open`, `weeks acme/open`). */
  readonly calls: string[] = [];

  /** `repos`: the repositories with figures, as GitHub spells them. */
  constructor(readonly repos: string[]) {}

  private known(repo: string): boolean {
    return this.repos.some((r) => r.toLowerCase() === repo.toLowerCase());
  }

  async weeks(repo: string, from: number, to: number): Promise<WeekFigures[]> {
    this.calls.push(`weeks ${repo}`);
    const out: WeekFigures[] = [];
    for (let monday = mondayOf(from); monday < to; monday += WEEK_MS) {
      out.push(this.known(repo) ? madeUpWeek(repo, monday) : blank(monday));
    }
    return out;
  }

  async figures(repo: string, from: number, to: number): Promise<Figures> {
    this.calls.push(`figures ${repo}`);
    const weeks: WeekFigures[] = [];
    for (let monday = mondayOf(from); monday < to; monday += WEEK_MS) weeks.push(this.known(repo) ? madeUpWeek(repo, monday) : blank(monday));
    return sumOf(weeks, from, to);
  }

  async repositories(): Promise<string[]> {
    this.calls.push("repositories");
    return [...this.repos];
  }
}

/** A week with nothing in it: every count zero, every rate and median null. */
export function blank(monday: number): WeekFigures {
  return {
    week: new Date(monday).toISOString().slice(0, 10), from: monday, to: monday + WEEK_MS, reviews: 0, findingsPosted: 0,
    ends: { reproduced: zeroEnds(), unverified: zeroEnds() },
    rates: { reproduced: rates(zeroEnds()), unverified: rates(zeroEnds()), all: rates(zeroEnds()) },
    cost: { totalUsd: 0, perReviewUsd: null, byKindUsd: {} },
    firstReviewSeconds: { median: null, count: 0 },
    jobs: { byKind: {}, byOutcome: {} },
  };
}
