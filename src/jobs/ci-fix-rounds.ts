/**
 * How many automatic ci-fix rounds each pull request has had: kept in the queue's own store (the
 * SQLite file, or Redis), so the count survives restarts and every worker sees the same one.
 */

/** A claim's answer: the round this job is (1-based), the head's round already taken, or no round left. */
export type RoundClaim =
  | { kind: "round"; round: number }
  /** Another job took round `round` on this very head and kept it: one round per head, never a second. */
  | { kind: "taken"; round: number }
  /** Every round was used; `announce` is true exactly once per pull request (the "stopping" comment). */
  | { kind: "exhausted"; rounds: number; announce: boolean };

export interface CiFixRounds {
  /**
   * Atomically takes the next round for head `headSha` when fewer than `limit` were used; else says so
   * (announcing once). The same job claiming again (it was requeued after its worker died) gets its
   * round back, not a new one; another job on the head the last round kept is refused (`taken`).
   */
  claim(repoKey: string, number: number, limit: number, jobId: string, headSha: string): Promise<RoundClaim>;
  /** Gives `round` (and its head) back when it is still the last one taken (a job stopped before it pushed anything, or whose push was refused). */
  release(repoKey: string, number: number, round: number): Promise<void>;
  /** The rounds used and whether the stop was announced; undefined when none were. */
  get(repoKey: string, number: number): Promise<{ rounds: number; stopped: boolean } | undefined>;
  /** Forgets pull requests whose count last changed before `before` (epoch ms); returns how many. */
  prune(before: number): Promise<number>;
  close(): Promise<void>;
}

export function checkRoundKey(repoKey: string, number: number): void {
  if (typeof repoKey !== "string" || !/^[^/\s]+\/[^/\s]+$/.test(repoKey)) throw new TypeError("repoKey must be owner/repo");
  if (!Number.isSafeInteger(number) || number < 1) throw new TypeError("a pull request number must be a positive integer");
}

export function checkLimit(limit: number, jobId: string, headSha: string): void {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new TypeError("a rounds limit must be a whole number above 0");
  if (typeof jobId !== "string" || !jobId) throw new TypeError("a claim needs the job's id");
  if (typeof headSha !== "string" || !/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(headSha)) throw new TypeError("a claim needs the head's commit id");
}
