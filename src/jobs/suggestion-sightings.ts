/**
 * What a review learns from crewbot's threads whose finding carried a suggestion: the suggestion
 * accepted (the diff from the commit it was posted on to the head now holds its lines), or
 * refused (a person resolved the thread, or dismissed it, and its lines did not change). Read
 * while the review holds the mirror; recorded (writers only) by `recordSightings`. An accepted
 * suggestion is credited only to someone crewbot can name: its thread's resolver, or the author
 * of the commit that applied it. A thread
 * already counted counts once, so every later review may find the same ones again.
 */
import type { InstallationOctokit } from "../github/types.js";
import { normaliseKind } from "../learnings/candidates.js";
import type { CandidateSighting } from "../learnings/types.js";
import type { JobRecord } from "../queue/types.js";
import type { StoredFinding } from "../review/review-store.js";
import { parseDiff, type DiffFile } from "../review/diff-lines.js";
import { suggestionApplied } from "../review/suggestion-applied.js";
import { dismissers, isOwnThread, linesChanged, sameBot, threadFingerprint, threadLines, type ReviewThread } from "../review/thread-plan.js";
import { commitsTouching, diffBetween } from "../workspace/diff.js";
import { diffsTo, type ThreadsRead } from "./resolve-threads.js";
import type { ObservePort } from "./services.js";

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

/** Commits of one thread's range looked at, at most, for the one that applied its suggestion. */
export const MAX_COMMITS_SEARCHED = 20;

/** The GitHub login of a commit's author (undefined when GitHub links the commit to no account). */
export type CommitAuthor = (sha: string) => Promise<string | undefined>;

/** GitHub's author of a commit of the pull request's repository (a fork's commits are reachable there too), asked once per commit. */
export function commitAuthorOf(octokit: Pick<InstallationOctokit, "request">, target: { owner: string; repo: string }): CommitAuthor {
  const asked = new Map<string, Promise<string | undefined>>();
  const ask = async (sha: string) => {
    const { data } = (await octokit.request("GET /repos/{owner}/{repo}/commits/{ref}", { owner: target.owner, repo: target.repo, ref: sha })) as { data: { author: { login?: string } | null } };
    return data.author?.login || undefined;
  };
  return (sha) => {
    if (!asked.has(sha)) asked.set(sha, ask(sha));
    return asked.get(sha)!;
  };
}

/**
 * The commit that applied a suggestion: of the commits of `from..head` that changed its file, the
 * only one, or else the first at which the diff from `from` holds it. Undefined when none of the
 * first MAX_COMMITS_SEARCHED does, or they cannot be read (a partial mirror lacks their files).
 */
async function applyingCommit(mirror: string, from: string, head: string, path: string, applied: (files: DiffFile[]) => boolean): Promise<string | undefined> {
  const touching = await commitsTouching(mirror, from, head, path);
  if (touching.length <= 1) return touching[0];
  for (const commit of touching.slice(0, MAX_COMMITS_SEARCHED)) {
    if (applied(parseDiff(await diffBetween(mirror, from, commit)))) return commit;
  }
  return undefined;
}

/**
 * Who accepted a suggestion: the person who resolved its thread (a writer: `read.refused` holds
 * the others' resolutions), else the GitHub author of the commit that applied it. Never the
 * person the review is for: on a fork's pull request re-reviewed by a maintainer, the fork's
 * author applied it. Whether they may teach (write permission) `recordSightings` asks.
 */
async function acceptedBy(thread: ReviewThread, read: ThreadsRead, applier: () => Promise<string | undefined>, authorOf: CommitAuthor): Promise<string | undefined> {
  const resolver = thread.resolvedBy?.login;
  if (resolver && !sameBot(resolver, read.slug) && !read.refused.has(thread.id)) return resolver;
  const commit = await applier();
  return commit === undefined ? undefined : authorOf(commit);
}

/**
 * The sightings of crewbot's threads with a suggestion on this head. An accepted one is credited
 * by `acceptedBy`, or not recorded when no one can be named. A failure to read the mirror or the
 * commit's author costs only that thread's sighting (logged).
 */
export async function suggestionSightings(
  mirror: string,
  read: ThreadsRead,
  findings: readonly StoredFinding[],
  head: string,
  job: JobRecord,
  o: { log: ObservePort["log"]; authorOf: CommitAuthor },
): Promise<CandidateSighting[]> {
  const byPrint = new Map(findings.flatMap((f) => (f.suggestion ? [[f.fingerprint, f] as const] : [])));
  if (byPrint.size === 0) return [];
  const diffFrom = diffsTo(mirror, head);
  const sightings: CandidateSighting[] = [];
  for (const thread of read.threads) {
    try {
      const f = byPrint.get(threadFingerprint(thread) ?? "");
      const lines = f && isOwnThread(thread, read.slug) ? postedLines(thread, f) : undefined;
      const url = thread.comments[0]?.url ?? f?.url;
      if (!f?.suggestion || !lines || !url) continue;
      const files = lines.commit === head ? [] : await diffFrom(lines.commit);
      if (!files) continue; // its commit left the branch (force-push): nothing can be told
      const base = { url, number: job.target.number, at: Date.now(), kind: f.kind || normaliseKind(f.title), text: `finding: ${f.title}`, path: thread.path };
      const applied = (diff: DiffFile[]) => suggestionApplied(diff, thread.path, lines.from, lines.to, f.suggestion!);
      if (applied(files)) {
        const by = await acceptedBy(thread, read, () => applyingCommit(mirror, lines.commit, head, thread.path, applied), o.authorOf);
        if (by) sightings.push({ ...base, source: "suggestion-accepted", by });
        else o.log.info(`job ${job.id}: a suggestion in ${thread.path} was applied, but no one who may be credited is known: not recorded`);
      } else if (!linesChanged(files, thread.path, lines.from, lines.to)) {
        for (const by of refusers(thread, read)) sightings.push({ ...base, source: "suggestion-refused", by });
      }
    } catch (error) {
      o.log.warn(`job ${job.id}: whether the suggestion of thread ${thread.id} was taken could not be read: ${(error as Error).message}`);
    }
  }
  return sightings;
}
