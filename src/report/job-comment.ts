import { postedCommentId, type JobRecord } from "../queue/types.js";
import type { GitHubWriter, ReportLog } from "./github-writer.js";
import { ProgressReporter } from "./progress-reporter.js";
import { initialProgress } from "./progress-state.js";
import { transcriptUrl } from "./render.js";
import { jobMarker, type ProgressState, type Terminal } from "./types.js";

/** The reporter of a job's progress comment on its issue or PR (editing the one it already has). */
export function jobReporter(job: JobRecord, writer: GitHubWriter, log?: ReportLog, options: { editIntervalMs?: number } = {}): ProgressReporter {
  const target = { owner: job.target.owner, repo: job.target.repo, number: job.target.number };
  return new ProgressReporter({ writer, target, jobId: job.id, commentId: postedCommentId(job), log, editIntervalMs: options.editIntervalMs });
}

/** A job's first state: nothing done yet, the transcript linked. */
export function jobProgress(job: JobRecord, publicUrl: string, extra: Partial<ProgressState> = {}): ProgressState {
  const startedBy = job.trigger.label !== undefined ? { startedBy: { login: job.trigger.sender, label: job.trigger.label } } : {};
  return initialProgress(job.id, job.kind, { links: { transcript: transcriptUrl(publicUrl, job.id) }, ...startedBy, ...extra });
}

/**
 * The label that started a job comes off when the job takes it, so adding it again runs again.
 * Already gone (404) is fine; any other refusal is logged and the job goes on.
 */
export async function removeTriggerLabel(job: JobRecord, writer: GitHubWriter, log: ReportLog): Promise<void> {
  const name = job.trigger.label;
  if (name === undefined) return;
  const { owner, repo, number } = job.target;
  try {
    await writer.write("DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}", { owner, repo, issue_number: number, name });
  } catch (error) {
    if ((error as { status?: number }).status !== 404) log.warn(`job ${job.id}: could not remove the label "${name}": ${(error as Error).message}`);
  }
}

/** Ends the comment of a job that will not run its course (cancelled while queued, interrupted). */
export async function endJobComment(job: JobRecord, writer: GitHubWriter, publicUrl: string, terminal: Terminal, log?: ReportLog): Promise<void> {
  if (postedCommentId(job) === undefined) return;
  await jobReporter(job, writer, log).finish(jobProgress(job, publicUrl, { terminal }));
}

/** Pages of the issue's comments read when looking for a job's own comment (100 each, since the job was made). */
const MAX_SEARCH_PAGES = 10;

interface IssueComment {
  id: number;
  body?: string | null;
  user: { login: string } | null;
}

/**
 * The progress comment an earlier attempt of the job posted but could not store (its process
 * died between the post and the store): crewbot's own comment — by its bot user `botLogin`,
 * whoever else quotes the marker — carrying the job's hidden marker, among the issue's comments
 * updated since the job was made. Undefined when there is none.
 */
export async function findJobComment(job: JobRecord, writer: GitHubWriter, botLogin: string): Promise<number | undefined> {
  const { owner, repo, number } = job.target;
  const marker = jobMarker(job.id);
  // GitHub's documented form is whole seconds (`YYYY-MM-DDTHH:MM:SSZ`); rounding down keeps the comment in.
  const since = new Date(Math.floor(job.createdAt / 1000) * 1000).toISOString().replace(".000Z", "Z");
  for (let page = 1; page <= MAX_SEARCH_PAGES; page++) {
    const { data } = await writer.read<IssueComment[]>("GET /repos/{owner}/{repo}/issues/{issue_number}/comments", { owner, repo, issue_number: number, since, per_page: 100, page });
    const own = data.find((c) => c.user?.login.toLowerCase() === botLogin.toLowerCase() && (c.body ?? "").includes(marker));
    if (own) return own.id;
    if (data.length < 100) return undefined;
  }
  return undefined;
}
