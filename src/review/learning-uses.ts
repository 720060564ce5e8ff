/**
 * Which merged learnings a review applied: the reviewer names them in `submit_review` (each
 * learning with the findings it kept out, each finding with the learning that shaped it), and only
 * ids of the learnings it was given count; the others are dropped, and said. Pure, but for
 * `recordLearningUses`, which hands the uses to the learnings store.
 */
import type { Finding, ParsedReview } from "./types.js";
import type { LearningsStore, LearningUse } from "../learnings/types.js";

/** What the learnings did to one review, for its reports. */
export interface LearningCounts {
  /** Learnings applied (named by the reviewer and given to it). */
  applied: number;
  /** Findings they kept the reviewer from posting. */
  suppressed: number;
  /** Findings they shaped. */
  shaped: number;
}

export interface LearningsApplied {
  /** One per learning applied, in the order the reviewer named them. */
  uses: Array<Pick<LearningUse, "id" | "suppressed" | "shaped">>;
  /** The findings, without a `learning` that names no learning given. */
  findings: Finding[];
  /** Ids the reviewer named that were not given to it. */
  unknown: string[];
}

/** The learnings the review applied, against the ids of the learnings given (the default branch's file). */
export function learningsApplied(review: Pick<ParsedReview, "findings" | "learnings">, given: ReadonlySet<string>): LearningsApplied {
  const uses = new Map<string, { id: string; suppressed: number; shaped: number }>();
  const unknown = new Set<string>();
  const use = (id: string) => {
    if (!uses.has(id)) uses.set(id, { id, suppressed: 0, shaped: 0 });
    return uses.get(id)!;
  };
  for (const applied of review.learnings ?? []) {
    if (given.has(applied.id)) use(applied.id).suppressed += applied.suppressed;
    else unknown.add(applied.id);
  }
  const findings = review.findings.map((f) => {
    if (f.learning === undefined) return f;
    if (given.has(f.learning)) {
      use(f.learning).shaped += 1;
      return f;
    }
    unknown.add(f.learning);
    const { learning: _dropped, ...rest } = f;
    return rest;
  });
  return { uses: [...uses.values()], findings, unknown: [...unknown] };
}

/** The counts a report shows; undefined when no learning was applied. */
export function learningCounts(uses: LearningsApplied["uses"]): LearningCounts | undefined {
  if (uses.length === 0) return undefined;
  return { applied: uses.length, suppressed: uses.reduce((n, u) => n + u.suppressed, 0), shaped: uses.reduce((n, u) => n + u.shaped, 0) };
}

/** Records the uses of one review (its job); a store's failure costs the counts only, said in the log. */
export async function recordLearningUses(
  store: LearningsStore,
  repo: string,
  jobId: string,
  uses: LearningsApplied["uses"],
  log: { warn(message: string): void },
  now = Date.now(),
): Promise<void> {
  if (uses.length === 0) return;
  try {
    await store.recordUses(repo, uses.map((u) => ({ ...u, jobId, at: now })));
  } catch (error) {
    log.warn(`job ${jobId}: the uses of ${uses.length} learning(s) could not be recorded: ${(error as Error).message}`);
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The report's line: "Learnings: 2 findings left out, 1 shaped (2 learnings applied)."; none when no learning applied. */
export function learningsLine(c: LearningCounts | undefined): string | undefined {
  if (!c || c.applied === 0) return undefined;
  const applied = `${plural(c.applied, "learning")} applied`;
  if (c.suppressed > 0 && c.shaped > 0) return `Learnings: ${plural(c.suppressed, "finding")} left out, ${c.shaped} shaped (${applied}).`;
  if (c.suppressed > 0) return `Learnings: ${plural(c.suppressed, "finding")} left out (${applied}).`;
  if (c.shaped > 0) return `Learnings: ${plural(c.shaped, "finding")} shaped (${applied}).`;
  return `Learnings: ${applied}, no finding left out or shaped.`;
}
