/**
 * The "⏳ Queued behind job …" comment of a job that waits behind another on its issue or PR. Its
 * job may start before the comment's id is stored, or the process posting it may die in between:
 * so the job is marked `COMMENT_BEING_POSTED` before the post, and its run looks for the comment by
 * its marker (jobs/job-report.ts). Once posted, the id is stored while the job still waits; a job
 * that started or ended meanwhile keeps one comment, and this one never stays "queued".
 */
import type { JobQueue } from "../queue/job-queue.js";
import { COMMENT_BEING_POSTED, postedCommentId, type JobRecord } from "../queue/types.js";
import type { GitHubWriter } from "../report/github-writer.js";
import { endJobComment, jobProgress, jobReporter } from "../report/job-comment.js";
import type { Terminal } from "../report/types.js";
import type { TriggerLog } from "./deps.js";

export interface QueuedCommentDeps {
  queue: Pick<JobQueue, "get" | "update">;
  publicUrl: string;
  log: TriggerLog;
}

/** How often, `LOOK_SPACING_MS` apart, a started job's comment is looked at before the queued one is left as it is. */
const LOOKS_AT_A_STARTED_JOB = 10;
const LOOK_SPACING_MS = 1000;

/** A job waiting behind another says so at once (👀 and its progress comment), then edits it when it runs. */
export async function announceQueued(job: JobRecord, behind: string, writer: GitHubWriter, deps: QueuedCommentDeps): Promise<void> {
  await deps.queue.update(job.id, { progressCommentId: COMMENT_BEING_POSTED });
  const reporter = jobReporter(job, writer, deps.log);
  if (job.trigger.commentId !== undefined) {
    await reporter.acknowledge({ commentId: job.trigger.commentId, kind: job.trigger.commentKind ?? "issue_comment" });
  }
  const id = await reporter.start(jobProgress(job, deps.publicUrl, { queuedBehind: behind }));
  if (id !== undefined) await storeQueuedComment(job, id, writer, deps);
}

/**
 * Stores the queued comment's id while the job waits. A job that started meanwhile either found
 * this comment by its marker (its stored id becomes this one) or posted its own (this one is
 * deleted); one that ended meanwhile (cancelled while this was posted) has this one ended too.
 */
async function storeQueuedComment(job: JobRecord, id: number, writer: GitHubWriter, deps: QueuedCommentDeps): Promise<void> {
  for (let look = 1; ; look++) {
    const now = await deps.queue.get(job.id);
    if (now === undefined || now.progressCommentId === id) return;
    if (now.state === "queued") return void (await deps.queue.update(job.id, { progressCommentId: id }));
    const own = postedCommentId(now);
    if (own !== undefined) return deleteComment(now, id, writer, deps.log);
    if (now.state !== "running") return endJobComment({ ...now, progressCommentId: id }, writer, deps.publicUrl, endedAs(now), deps.log);
    if (look >= LOOKS_AT_A_STARTED_JOB) return deps.log.warn({ jobId: job.id, commentId: id }, "queued comment left as it is: its started job stored no comment");
    // On the writer's clock, the app's one time for its GitHub waits (a fake one in tests).
    await writer.clock.sleep(LOOK_SPACING_MS);
  }
}

/** The queued comment of a job whose run posted its own: one comment per job. */
async function deleteComment(job: JobRecord, id: number, writer: GitHubWriter, log: TriggerLog): Promise<void> {
  const { owner, repo } = job.target;
  log.info({ jobId: job.id, commentId: id, own: job.progressCommentId }, "queued comment deleted: the job started with a comment of its own");
  await writer.write("DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}", { owner, repo, comment_id: id });
}

/** How a job that ended before its queued comment was stored ended, for that comment. */
function endedAs(job: JobRecord): Terminal {
  if (job.state === "succeeded") return { kind: "done" };
  if (job.state === "cancelled") return { kind: "cancelled", ...(job.cancelledBy ? { by: job.cancelledBy } : {}) };
  return { kind: "failed", reason: (job.outcome ?? "").replace(/^❌ Failed: /, "").split(" · ")[0] || "it ended before it ran" };
}
