/**
 * The job queue's state machine, once for both backends: which state a job may go to from which, and
 * when a job found stale goes back to the queue. SQLite builds its statements' state conditions from
 * it; the Redis scripts receive it as arguments (`transitionArgs`) and hold no copy of it.
 */
import type { EndState } from "../queue/job-queue.js";
import type { JobState } from "../queue/types.js";

/** From each state, the states a job may go to. An ended job never moves again. */
export const TRANSITIONS: Readonly<Record<JobState, readonly JobState[]>> = {
  // Claimed; or ended before it ran (cancelled, superseded, finished by the finaliser).
  queued: ["running", "succeeded", "failed", "cancelled"],
  // Deferred, paused for a question or requeued by recovery; or ended.
  running: ["queued", "succeeded", "failed", "cancelled"],
  succeeded: [],
  failed: [],
  cancelled: [],
};

/**
 * A stale running job (its lease ran out, or its worker died) whose agents had not started goes back
 * to the queue only while its attempts are below this: a job that keeps killing its worker ends.
 */
export const REQUEUE_BELOW_ATTEMPTS = 2;

/** What recovery does with a stale running job: a pending cancel or supersede ends it, else it is requeued or interrupted. */
export type Recovery = "ending" | "requeue" | "interrupt";

export function recoveryOf(job: { agentsStarted: boolean; attempts: number }, hasEnding: boolean): Recovery {
  if (hasEnding) return "ending";
  return !job.agentsStarted && job.attempts < REQUEUE_BELOW_ATTEMPTS ? "requeue" : "interrupt";
}

/** The states a job may reach `to` from. */
export const sourcesOf = (to: JobState): JobState[] =>
  (Object.keys(TRANSITIONS) as JobState[]).filter((from) => TRANSITIONS[from].includes(to));

/** An SQL condition: the row's `state` is one `to` may be reached from. */
export const mayBecomeSql = (to: EndState | JobState): string => `state IN (${sourcesOf(to).map((s) => `'${s}'`).join(", ")})`;

/** The table as the Redis scripts take it: `from>to` pairs joined by commas, then the requeue bound. */
export function transitionArgs(): [string, string] {
  const pairs = (Object.entries(TRANSITIONS) as Array<[JobState, readonly JobState[]]>).flatMap(([from, tos]) => tos.map((to) => `${from}>${to}`));
  return [pairs.join(","), String(REQUEUE_BELOW_ATTEMPTS)];
}
