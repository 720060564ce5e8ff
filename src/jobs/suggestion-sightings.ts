/**
 * What a review learns from crewbot's threads whose finding carried a suggestion: the suggestion
 * accepted (the diff from the commit it was posted on to the head now holds its lines), or
 * refused (a person resolved the thread, or dismissed it, and its lines did not change). Read
 * while the review holds the mirror; recorded (writers only) by `recordSightings`. A thread
 * already counted counts once, so every later review may find the same ones again.
 */
import { normaliseKind } from "../learnings/candidates.js";
import type { CandidateSighting } from "../learnings/types.js";
import type { JobRecord } from "../queue/types.js";
import type { StoredFinding } from "../review/review-store.js";
import { suggestionApplied } from "../review/suggestion-applied.js";
import { dismissers, isOwnThread, linesChanged, sameBot, threadFingerprint, threadLines, type ReviewThread } from "../review/thread-plan.js";
import { diffsTo, type ThreadsRead } from "./resolve-threads.js";
import type { JobServices } from "./services.js";

/** Who refused a thread's suggestion: the person who resolved it, or those who dismissed it. */
function refusers(thread: ReviewThread, read: ThreadsRead): string[] {
  const resolver = thread.isResolved && !read.refused.has(thread.id) ? thread.resolvedBy?.login : undefined;
  const resolvedBy = resolver && !sameBot(resolver, read.slug) ? [resolver] : [];
  return [...resolvedBy, ...(read.dismissed.has(thread.id) ? dismissers(thread, read.slug) : [])];
}

/** The thread's lines as posted: GitHub's, else the kept finding's. */
function postedLines(thread: ReviewThread, f: StoredFinding): { commit: string; from: number; to: number } | undefined {
  return threadLines(thread) ?? (f.commit ? { commit: f.commit, from: f.line, to: f.endLine ?? f.line } : undefined);
}

/**
 * The sightings of crewbot's threads with a suggestion on this head. `by` of an accepted one is
 * whoever resolved the thread, else the person the job is for (the pusher). A failure to read
 * the mirror costs only these sightings (logged).
 */
export async function suggestionSightings(mirror: string, read: ThreadsRead, findings: readonly StoredFinding[], head: string, job: JobRecord, log: JobServices["log"]): Promise<CandidateSighting[]> {
  const byPrint = new Map(findings.flatMap((f) => (f.suggestion ? [[f.fingerprint, f] as const] : [])));
  if (byPrint.size === 0) return [];
  const diffFrom = diffsTo(mirror, head);
  const sightings: CandidateSighting[] = [];
  try {
    for (const thread of read.threads) {
      const f = byPrint.get(threadFingerprint(thread) ?? "");
      const lines = f && isOwnThread(thread, read.slug) ? postedLines(thread, f) : undefined;
      const url = thread.comments[0]?.url ?? f?.url;
      if (!f?.suggestion || !lines || !url) continue;
      const files = lines.commit === head ? [] : await diffFrom(lines.commit);
      if (!files) continue; // its commit left the branch (force-push): nothing can be told
      const base = { url, number: job.target.number, at: Date.now(), kind: f.kind || normaliseKind(f.title), text: `finding: ${f.title}`, path: thread.path };
      if (suggestionApplied(files, thread.path, lines.from, lines.to, f.suggestion)) {
        const resolver = thread.resolvedBy?.login;
        const by = resolver && !sameBot(resolver, read.slug) && !read.refused.has(thread.id) ? resolver : job.trigger.sender;
        sightings.push({ ...base, source: "suggestion-accepted", by });
      } else if (!linesChanged(files, thread.path, lines.from, lines.to)) {
        for (const by of refusers(thread, read)) sightings.push({ ...base, source: "suggestion-refused", by });
      }
    }
  } catch (error) {
    log.warn(`job ${job.id}: whether suggestions were taken could not be read: ${(error as Error).message}`);
  }
  return sightings;
}
