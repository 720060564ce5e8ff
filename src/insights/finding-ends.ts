/**
 * How each finding crewbot posted on a pull request ended, when the pull request merged or closed:
 * fixed (a push changed its lines and crewbot resolved its thread: the kept finding says so),
 * dismissed (its thread resolved by a writer, or a writer's dismissal reply, without a change), or
 * still open; reproduced (a failing proof) or unverified apart. Pure.
 */
import type { StoredFinding } from "../review/review-store.js";
import { sameBot, threadFingerprint, type ThreadPlan } from "../review/thread-plan.js";
import type { EndCounts } from "./events.js";

export type FindingEnd = "fixed" | "dismissed" | "open";

/**
 * Each kept finding's end. `closed` are crewbot's threads a writer (or crewbot) closed, as the
 * review job plans them without a mirror; undefined when the threads could not be read (then only
 * a fix ends a finding). A thread crewbot itself resolved was fixed by a push, whatever the kept
 * finding says; any other closed thread was dismissed.
 */
export function findingEnds(findings: readonly StoredFinding[], closed: ThreadPlan["closed"] | undefined, slug: string): Array<{ end: FindingEnd; reproduced: boolean }> {
  const ended = new Map<string, FindingEnd>();
  for (const thread of closed ?? []) {
    const print = threadFingerprint(thread);
    if (print) ended.set(print, thread.isResolved && sameBot(thread.resolvedBy?.login, slug) ? "fixed" : "dismissed");
  }
  return findings.map((f) => ({ end: f.fixed ? "fixed" : (ended.get(f.fingerprint) ?? "open"), reproduced: f.reproduced === true }));
}

/** The ends counted, reproduced and unverified apart. */
export function countEnds(ends: ReadonlyArray<{ end: FindingEnd; reproduced: boolean }>): { reproduced: EndCounts; unverified: EndCounts } {
  const counts = { reproduced: { fixed: 0, dismissed: 0, open: 0 }, unverified: { fixed: 0, dismissed: 0, open: 0 } };
  for (const { end, reproduced } of ends) counts[reproduced ? "reproduced" : "unverified"][end] += 1;
  return counts;
}
