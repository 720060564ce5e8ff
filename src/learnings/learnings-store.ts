/**
 * What crewbot's own learnings stores (SQLite, Redis) add to `LearningsStore`: whether a sighting
 * was new (a thread already counted is not), how many sightings a candidate ever had, and
 * pruning for the retention sweep. The checks every store makes alike live here too.
 */
import type { StoredCandidate } from "./candidates.js";
import type { CandidateSighting, LearningsStore, LearningUse } from "./types.js";

/** The candidate as stored after `addSighting`, and whether this sighting was new. */
export type SightingResult = StoredCandidate & { added: boolean };

export interface LearningUsage {
  reviews: number;
  suppressed: number;
  shaped: number;
  lastUsed: number;
}

export interface PrunableLearningsStore extends LearningsStore {
  addSighting(repoKey: string, sighting: CandidateSighting): Promise<SightingResult>;
  candidates(repoKey: string): Promise<StoredCandidate[]>;
  /** Forgets candidates last seen, and uses made, before `before` (epoch ms); returns how many. */
  prune(before: number): Promise<number>;
}

/** A learning's last use is kept this long (the most `learnings.staleDays` allows), whatever the retention: staleness needs it. */
export const LAST_USE_KEPT_MS = 3650 * 86_400_000;

/** Uses as every store takes them (throws on a bad one). */
export function checkUses(uses: readonly LearningUse[]): void {
  if (!Array.isArray(uses)) throw new TypeError("uses must be a list");
  for (const u of uses) {
    if (!u || typeof u.id !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(u.id)) throw new TypeError("a use needs the learning's id");
    if (typeof u.jobId !== "string" || u.jobId === "" || u.jobId.length > 200) throw new TypeError("a use needs its job's id");
    if (!Number.isFinite(u.at)) throw new TypeError("a use needs its time");
    if (![u.suppressed, u.shaped].every((n) => Number.isSafeInteger(n) && n >= 0)) throw new TypeError("a use's counts must be whole numbers, 0 or more");
  }
}
