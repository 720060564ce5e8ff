/**
 * Where a job reports, one implementation per `SurfaceKey` (jobs/job-types.ts names each job
 * type's): how it opens, shows its events, ends, and is finished at start-up when its process died.
 * The frame (jobs/job-frame.ts) runs every job on the surface its type's row names.
 */
import { postedCommentId, type JobRecord } from "../queue/types.js";
import { postReply } from "../report/progress-reporter.js";
import { checkRunSurface } from "./check-run-surface.js";
import { outcomeOf, quietReport, reasonOf, type JobSurface } from "./job-surface.js";
import { surfaceKeyOf, type SurfaceKey } from "./job-types.js";
import { earlierComment, finaliseProgressComment, openProgressComment } from "./job-report.js";
import type { JobServices } from "./services.js";
import { threadReplySurface } from "./thread-reply-surface.js";

/** Nothing on GitHub: the outcome is the queue's record and a log line with the job id. */
const silent: JobSurface = {
  async open(job, _ctx, services, { writer, access }) {
    services.observe.transcripts.begin(job, [access.token]);
    return quietReport(job, services, writer, async (ending) => {
      const outcome = outcomeOf(ending);
      const log = ending.terminal.kind === "done" ? services.observe.log.info : services.observe.log.warn;
      log.call(services.observe.log, `job ${job.id}: ${job.kind} on ${job.target.owner}/${job.target.repo}: ${outcome}`);
      return outcome;
    });
  },
  finaliseInterrupted: async () => undefined,
};

/**
 * One plain reply when the job ends: its answer, or why there is none. A job that waited behind
 * another has its "⏳ Queued behind …" comment: that comment becomes the reply, never left queued.
 */
const reply: JobSurface = {
  async open(job, ctx, services, { writer, access }) {
    services.observe.transcripts.begin(job, [access.token]);
    const { owner, repo, number } = job.target;
    const queued = postedCommentId(job) ?? (await earlierComment(job, writer, services));
    if (queued !== undefined && queued !== job.progressCommentId) await ctx.update({ progressCommentId: queued });
    return quietReport(job, services, writer, async (ending, state) => {
      const body = state.answer ?? `crewbot could not do this: ${reasonOf(ending.terminal)}`;
      if (queued === undefined) await postReply(writer, { owner, repo, number }, body, services.observe.log);
      else await writer.write("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", { owner, repo, comment_id: queued, body });
      return outcomeOf(ending);
    });
  },
  // Nothing shows while it runs; a queued comment it had is ended like a progress comment.
  finaliseInterrupted: finaliseProgressComment,
};

const progressComment: JobSurface = {
  async open(job, ctx, services, { writer, access }) {
    services.observe.transcripts.begin(job, [access.token]); // redacted with the job's token too
    return openProgressComment(job, ctx, services, writer);
  },
  finaliseInterrupted: finaliseProgressComment,
};

const SURFACES: Record<SurfaceKey, JobSurface> = {
  "progress-comment": progressComment,
  "check-run": checkRunSurface,
  "thread-reply": threadReplySurface,
  reply,
  silent,
};

export const surfaceOf = (job: JobRecord): JobSurface => SURFACES[surfaceKeyOf(job)];

/** A job that died with its process, finished at start-up on its surface. */
export const finaliseInterrupted = (job: JobRecord, services: JobServices): Promise<void> => surfaceOf(job).finaliseInterrupted(job, services);
