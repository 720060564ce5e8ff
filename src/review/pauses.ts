/**
 * Pull requests a writer paused (`/crewbot pause`): no automatic review, summary or ci-fix round
 * there until `/crewbot resume`. Kept per repository and pull request in the queue's own store (the
 * SQLite file, or Redis), so a pause survives restarts and every worker sees it; pruned by
 * retention like the other per-pull-request records.
 */

/** Who paused a pull request, and when (epoch ms). */
export interface Pause {
  by: string;
  at: number;
}

export interface PauseStore {
  /** The pull request's pause; undefined when it is not paused. */
  get(repoKey: string, number: number): Promise<Pause | undefined>;
  /** Pauses it; `was` is the pause already in place (left as it is), if any. */
  pause(repoKey: string, number: number, by: string): Promise<{ was?: Pause }>;
  /** Resumes it; `was` is the pause it ended, undefined when it was not paused. */
  resume(repoKey: string, number: number): Promise<{ was?: Pause }>;
  /** Forgets pauses and resumes last changed before `before` (epoch ms); returns how many. */
  prune(before: number): Promise<number>;
  close(): Promise<void>;
}

/** The check run's text of a push while paused: who paused, and how to go on. */
export const pausedReason = (pause: Pause): string => `the pull request is paused by @${pause.by}; comment /crewbot resume to review its pushes again`;
