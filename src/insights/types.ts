/**
 * What production says of one repository's reviews: the figures `/insights`, `/crewbot insights`
 * and the metrics show. Each figure is counted over a period (a week on the page, the last 30
 * days in a reply); a rate is null when nothing it divides by happened in the period.
 */

/** The ends of the findings crewbot posted, as recorded when their pull request closed or merged. */
export interface FindingEnds {
  /** Findings posted on pull requests that ended in the period. */
  posted: number;
  /** Fixed by a push before merge: crewbot resolved the thread because the lines changed. */
  fixed: number;
  /** Dismissed ("won't fix", "false positive"…) or resolved by a writer without a change. */
  dismissed: number;
  /** Still open when the pull request merged or closed. */
  open: number;
}

export interface Rates {
  /** fixed ÷ posted over findings of pull requests merged in the period. */
  resolution: number | null;
  /** dismissed ÷ posted over findings of pull requests ended (merged or closed) in the period. */
  dismissal: number | null;
}

export interface Figures {
  /** Epoch ms: the period is [from, to). */
  from: number;
  to: number;
  /** Review jobs that posted a review (automatic or `/review`) in the period. */
  reviews: number;
  /** Findings posted in the period, whatever became of them. */
  findingsPosted: number;
  /** Ends of the findings of pull requests that merged or closed in the period: reproduced (a failing proof) and unverified apart. */
  ends: { reproduced: FindingEnds; unverified: FindingEnds };
  rates: { reproduced: Rates; unverified: Rates; all: Rates };
  cost: {
    totalUsd: number;
    /** totalUsd of review jobs ÷ reviews; null without reviews. */
    perReviewUsd: number | null;
    /** Job kind (the job types' table) → USD. */
    byKindUsd: Record<string, number>;
  };
  /** Seconds from a pull request's opening to crewbot's first review of it: the median over first reviews in the period. */
  firstReviewSeconds: { median: number | null; count: number };
  /** Jobs ended in the period: kind → count, and end state (succeeded, failed, cancelled…) → count. */
  jobs: { byKind: Record<string, number>; byOutcome: Record<string, number> };
}

/** A week's figures: weeks start on Monday 00:00 UTC. */
export interface WeekFigures extends Figures {
  /** YYYY-MM-DD of the Monday. */
  week: string;
}

/** Where the figures come from: the stores, whichever backend holds them. */
export interface InsightsSource {
  /** The repository's (`owner/repo`, any case) figures over [from, to). */
  figures(repo: string, from: number, to: number): Promise<Figures>;
  /** One entry per week that overlaps [from, to), oldest first, weeks with nothing included (zeros). */
  weeks(repo: string, from: number, to: number): Promise<WeekFigures[]>;
  /** Repositories (`owner/repo` as GitHub spells them) with any figure since `since`: what the page may list. */
  repositories(since: number): Promise<string[]>;
}
