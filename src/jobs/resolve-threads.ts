/**
 * The review job's side of crewbot's review threads: read them (GraphQL), decide with the mirror
 * which ones later commits fixed, resolve those through the writer, and tell the review which
 * findings never to post again and which stay open for the gate — a thread resolved by someone
 * without write permission among them, which crewbot says once in that thread. A thread read that
 * fails costs the review nothing but this step (the gate then counts every kept finding).
 */
import { canWrite } from "../github/permission.js";
import type { InstallationOctokit } from "../github/types.js";
import { fetchReviewThreads, resolveReviewThread } from "../review/review-threads-api.js";
import type { JobRecord } from "../queue/types.js";
import type { GitHubWriter } from "../report/github-writer.js";
import { parseDiff, type DiffFile } from "../review/diff-lines.js";
import type { StoredFinding } from "../review/review-store.js";
import { dismissers, linesChanged, planThreads, sameBot, threadFingerprint, threadLines, type Resolution, type ReviewThread, type ThreadPlan } from "../review/thread-plan.js";
import { diffBetween, isAncestor } from "../workspace/diff.js";
import type { GitHubPort, JobServices, ObservePort } from "./services.js";

export interface ThreadsRead {
  threads: ReviewThread[];
  slug: string;
  /** Threads a writer dismissed in a reply. */
  dismissed: Set<string>;
  /** Resolved threads of crewbot's whose resolution does not count: no one with write permission resolved them. */
  refused: Set<string>;
}

export interface ThreadOutcome extends ThreadPlan {
  /** Threads GitHub confirmed resolved by this review. */
  resolved: number;
}

/** crewbot's bot login as GraphQL and REST name it (`crewbot[bot]`). */
export async function botSlug(github: Pick<GitHubPort, "appSlug">): Promise<string> {
  return `${await github.appSlug()}[bot]`;
}

/** The PR's threads and which of crewbot's a writer dismissed; undefined (logged) when GitHub could not say. */
export async function readThreads(job: Pick<JobRecord, "id" | "target">, octokit: InstallationOctokit, services: Pick<JobServices, "github" | "observe">): Promise<ThreadsRead | undefined> {
  const { owner, repo, number } = job.target;
  try {
    const slug = await botSlug(services.github);
    const threads = await fetchReviewThreads(octokit, owner, repo, number);
    const dismissed = new Set<string>();
    const refused = new Set<string>();
    const writer = async (login: string) => canWrite(await services.github.permissions.get(octokit, owner, repo, login));
    for (const thread of threads) {
      for (const login of dismissers(thread, slug)) {
        if (await writer(login)) {
          dismissed.add(thread.id);
          break;
        }
      }
      if (thread.isResolved && (await resolutionOf(thread, slug, writer)) === "refused") refused.add(thread.id);
    }
    return { threads, slug, dismissed, refused };
  } catch (error) {
    services.observe.log.warn(`job ${job.id}: the review threads could not be read (none resolved, dismissals not known): ${(error as Error).message}`);
    return undefined;
  }
}

/** crewbot's own resolution and a writer's count; anyone else's, or one GitHub names no person for, does not. */
async function resolutionOf(thread: ReviewThread, slug: string, writer: (login: string) => Promise<boolean>): Promise<Resolution> {
  const login = thread.resolvedBy?.login;
  if (!login) return "refused";
  return sameBot(login, slug) || (await writer(login)) ? "closes" : "refused";
}

/** The pure plan of what the threads say, without the mirror (a skipped review): no line is known changed. */
export function planWithoutMirror(read: ThreadsRead): ThreadPlan {
  return planThreads(read.threads, read.slug, () => undefined, (t) => read.dismissed.has(t.id), (t) => (read.refused.has(t.id) ? "refused" : "closes"));
}

/** A diff from a commit to `head`, read once per commit; undefined when the commit is not in head's history (force-push). */
export function diffsTo(mirror: string, head: string): (commit: string) => Promise<DiffFile[] | undefined> {
  const diffs = new Map<string, DiffFile[] | undefined>();
  return async (commit) => {
    if (!diffs.has(commit)) diffs.set(commit, (await isAncestor(mirror, commit, head)) ? parseDiff(await diffBetween(mirror, commit, head)) : undefined);
    return diffs.get(commit);
  };
}

/** The fingerprints of kept findings whose lines the diff from their commit to `head` changes. */
export async function fixedFindings(mirror: string, findings: readonly StoredFinding[], head: string): Promise<Set<string>> {
  const diffFrom = diffsTo(mirror, head);
  const fixed = new Set<string>();
  for (const f of findings) {
    if (f.fixed || !f.commit || f.commit === head) continue;
    const files = await diffFrom(f.commit);
    if (files && linesChanged(files, f.path, f.line, f.endLine ?? f.line)) fixed.add(f.fingerprint);
  }
  return fixed;
}

/**
 * Which threads `head` fixed: for each of crewbot's open threads, the diff from the commit it was
 * made on to `head` (read in the mirror) changes its lines. A commit no longer in the branch's
 * history (force-push) says nothing: the thread stays open.
 */
export async function planWithMirror(mirror: string, read: ThreadsRead, head: string): Promise<ThreadPlan> {
  const diffFrom = diffsTo(mirror, head);
  const changed = new Map<string, boolean>();
  for (const thread of read.threads) {
    const lines = threadLines(thread);
    // A thread resolved by someone who may not close it is still open: a push may fix it.
    if ((thread.isResolved && !read.refused.has(thread.id)) || !lines || lines.commit === head) continue;
    const files = await diffFrom(lines.commit);
    if (files) changed.set(thread.id, linesChanged(files, thread.path, lines.from, lines.to));
  }
  return planThreads(read.threads, read.slug, (t) => changed.get(t.id), (t) => read.dismissed.has(t.id), (t) => (read.refused.has(t.id) ? "refused" : "closes"));
}

/** The commits whose files a partial mirror needs for `planWithMirror` and `fixedFindings`. */
export function threadCommits(read: ThreadsRead | undefined, findings: readonly StoredFinding[] = []): string[] {
  const commits = (read?.threads ?? []).flatMap((t) => {
    const commit = t.isResolved && !read?.refused.has(t.id) ? undefined : threadLines(t)?.commit;
    return commit ? [commit] : [];
  });
  return [...new Set([...commits, ...findings.flatMap((f) => (f.fixed || !f.commit ? [] : [f.commit]))])];
}

/** The hidden mark of crewbot's reply to a resolution that does not count: it is said once per thread. */
export const RESOLUTION_KEPT_MARKER = "<!-- crewbot:resolution-kept -->";

/**
 * Tells, once per thread, that a resolution by someone without write permission leaves the
 * finding open for the gate. Only for the threads given (those whose finding holds the gate) that
 * a person resolved; a thread that has crewbot's reply already gets none. A refused write is logged; the rest go on.
 */
export async function answerRefusedResolutions(
  job: JobRecord,
  writer: GitHubWriter,
  threads: readonly ReviewThread[],
  o: { slug: string; headSha: string; failOn: string; log: ObservePort["log"] },
): Promise<number> {
  const { owner, repo, number } = job.target;
  let replied = 0;
  for (const thread of threads) {
    const top = thread.comments[0];
    const who = thread.resolvedBy?.login;
    // GitHub names no person for a bot's resolution (crewbot's own, before it kept findings): nothing to tell.
    if (!who || !top?.databaseId || thread.comments.some((c) => sameBot(c.author?.login, o.slug) && c.body.includes(RESOLUTION_KEPT_MARKER))) continue;
    const body =
      `@${who} resolved this thread without write permission on the repository, so the finding stays open: ` +
      `it still counts for the \`crewbot/review\` check (review.failOn: ${o.failOn}). ` +
      `A push that changes these lines closes it, or someone with write permission can resolve it or reply "won't fix".\n\n${RESOLUTION_KEPT_MARKER}`;
    try {
      await writer.write("POST /repos/{owner}/{repo}/pulls/{pull_number}/comments", {
        ...{ owner, repo, pull_number: number, body },
        // GitHub's description requires these beside `in_reply_to` (which makes GitHub ignore them).
        ...{ in_reply_to: top.databaseId, commit_id: o.headSha, path: thread.path },
      });
      replied++;
    } catch (error) {
      o.log.warn(`job ${job.id}: could not say in thread ${thread.id} that its resolution does not count: ${(error as Error).message}`);
    }
  }
  return replied;
}

/** The threads of these open findings that someone resolved without the right to. */
export function refusedThreadsOf(plan: Pick<ThreadPlan, "refused">, fingerprints: ReadonlySet<string>): ReviewThread[] {
  return plan.refused.filter((t) => {
    const fp = threadFingerprint(t);
    return fp !== undefined && fingerprints.has(fp);
  });
}

/** Resolves the planned threads one write at a time; a refusal is logged and the rest go on. */
export async function resolveThreads(job: JobRecord, writer: GitHubWriter, plan: ThreadPlan, services: Pick<JobServices, "observe">): Promise<ThreadOutcome> {
  let resolved = 0;
  for (const thread of plan.resolve) {
    try {
      if (await resolveReviewThread(writer, thread.id)) resolved++;
    } catch (error) {
      services.observe.log.warn(`job ${job.id}: review thread ${thread.id} (${thread.path}) could not be resolved: ${(error as Error).message}`);
    }
  }
  if (resolved > 0) services.observe.log.info(`job ${job.id}: resolved ${resolved} review thread${resolved === 1 ? "" : "s"} whose lines the new commits changed`);
  return { ...plan, resolved };
}
