/**
 * The review job's side of crewbot's review threads: read them (GraphQL), decide with the mirror
 * which ones later commits fixed, resolve those through the writer, and tell the review which
 * findings never to post again. A thread read that fails costs the review nothing but this step.
 */
import { canWrite } from "../github/permission.js";
import type { InstallationOctokit } from "../github/types.js";
import { fetchReviewThreads, resolveReviewThread } from "../review/review-threads-api.js";
import type { JobRecord } from "../queue/types.js";
import type { GitHubWriter } from "../report/github-writer.js";
import { parseDiff, type DiffFile } from "../review/diff-lines.js";
import { dismissers, linesChanged, planThreads, threadLines, type ReviewThread, type ThreadPlan } from "../review/review-threads.js";
import { diffBetween, isAncestor } from "../workspace/diff.js";
import type { JobServices } from "./services.js";

export interface ThreadsRead {
  threads: ReviewThread[];
  slug: string;
  /** Threads a writer dismissed in a reply. */
  dismissed: Set<string>;
}

export interface ThreadOutcome extends ThreadPlan {
  /** Threads GitHub confirmed resolved by this review. */
  resolved: number;
}

/** crewbot's bot login as GraphQL and REST name it (`crewbot[bot]`). */
export async function botSlug(services: Pick<JobServices, "botIdentity" | "appSlug">, octokit: InstallationOctokit): Promise<string> {
  return services.appSlug ? `${await services.appSlug()}[bot]` : (await services.botIdentity(octokit)).name;
}

/** The PR's threads and which of crewbot's a writer dismissed; undefined (logged) when GitHub could not say. */
export async function readThreads(job: JobRecord, octokit: InstallationOctokit, services: JobServices): Promise<ThreadsRead | undefined> {
  const { owner, repo, number } = job.target;
  try {
    const slug = await botSlug(services, octokit);
    const threads = await fetchReviewThreads(octokit, owner, repo, number);
    const dismissed = new Set<string>();
    for (const thread of threads) {
      for (const login of dismissers(thread, slug)) {
        if (canWrite(await services.permissions.get(octokit, owner, repo, login))) {
          dismissed.add(thread.id);
          break;
        }
      }
    }
    return { threads, slug, dismissed };
  } catch (error) {
    services.log.warn(`job ${job.id}: the review threads could not be read (none resolved, dismissals not known): ${(error as Error).message}`);
    return undefined;
  }
}

/**
 * Which threads `head` fixed: for each of crewbot's open threads, the diff from the commit it was
 * made on to `head` (read in the mirror) changes its lines. A commit no longer in the branch's
 * history (force-push) says nothing: the thread stays open.
 */
export async function planWithMirror(mirror: string, read: ThreadsRead, head: string): Promise<ThreadPlan> {
  const diffs = new Map<string, DiffFile[] | undefined>();
  const diffFrom = async (commit: string) => {
    if (!diffs.has(commit)) diffs.set(commit, (await isAncestor(mirror, commit, head)) ? parseDiff(await diffBetween(mirror, commit, head)) : undefined);
    return diffs.get(commit);
  };
  const changed = new Map<string, boolean>();
  for (const thread of read.threads) {
    const lines = threadLines(thread);
    if (thread.isResolved || !lines || lines.commit === head) continue;
    const files = await diffFrom(lines.commit);
    if (files) changed.set(thread.id, linesChanged(files, thread.path, lines.from, lines.to));
  }
  return planThreads(read.threads, read.slug, (t) => changed.get(t.id), (t) => read.dismissed.has(t.id));
}

/** The commits whose files a partial mirror needs for `planWithMirror`. */
export function threadCommits(read: ThreadsRead | undefined): string[] {
  const commits = (read?.threads ?? []).flatMap((t) => {
    const commit = t.isResolved ? undefined : threadLines(t)?.commit;
    return commit ? [commit] : [];
  });
  return [...new Set(commits)];
}

/** Resolves the planned threads one write at a time; a refusal is logged and the rest go on. */
export async function resolveThreads(job: JobRecord, writer: GitHubWriter, plan: ThreadPlan, services: Pick<JobServices, "log">): Promise<ThreadOutcome> {
  let resolved = 0;
  for (const thread of plan.resolve) {
    try {
      if (await resolveReviewThread(writer, thread.id)) resolved++;
    } catch (error) {
      services.log.warn(`job ${job.id}: review thread ${thread.id} (${thread.path}) could not be resolved: ${(error as Error).message}`);
    }
  }
  if (resolved > 0) services.log.info(`job ${job.id}: resolved ${resolved} review thread${resolved === 1 ? "" : "s"} whose lines the new commits changed`);
  return { ...plan, resolved };
}
