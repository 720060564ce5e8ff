/**
 * A reply in one of crewbot's review threads as a job's surface (`POST …/pulls/{n}/comments`
 * with `in_reply_to`; the `/replies` endpoint is not open to GitHub Apps). No progress comment:
 * the answer, or the reason there is none, is the reply.
 */
import type { JobRecord } from "../queue/types.js";
import type { GitHubWriter } from "../report/github-writer.js";
import { headline, transcriptUrl } from "../report/render.js";
import { quietReport, type JobSurface } from "./job-surface.js";
import type { ObservePort } from "./services.js";

/** The thread replied in: its first comment and where it sits. */
export interface ThreadPlace {
  topId: number;
  path: string;
  line?: number;
}

/** The thread as the webhook placed it: enough to reply in when GitHub could not be asked. */
export function placedThread(job: JobRecord): ThreadPlace | undefined {
  const place = job.trigger.reviewComment;
  return place?.inReplyToId ? { topId: place.inReplyToId, path: place.path, ...(place.line !== undefined ? { line: place.line } : {}) } : undefined;
}

async function reply(writer: GitHubWriter, job: JobRecord, thread: ThreadPlace, body: string): Promise<string> {
  const { owner, repo, number } = job.target;
  const { data } = await writer.write<{ html_url: string }>("POST /repos/{owner}/{repo}/pulls/{pull_number}/comments", {
    ...{ owner, repo, pull_number: number, body },
    // GitHub's description requires these beside `in_reply_to` (which makes GitHub ignore them).
    ...{ in_reply_to: thread.topId, commit_id: job.review!.headSha, path: thread.path },
  });
  return data.html_url;
}

/** One short reply: there is no answer, and why (the writer redacts it). A refused write is logged. */
async function sayNoAnswer(writer: GitHubWriter, job: JobRecord, thread: ThreadPlace, why: string, link: string, log: ObservePort["log"]): Promise<void> {
  await reply(writer, job, thread, `${why} — crewbot could not answer here. [Transcript](${link})`).catch((err: unknown) => {
    log.warn(`job ${job.id}: could not post the failure in the thread: ${(err as Error).message}`);
  });
}

export const threadReplySurface: JobSurface = {
  async open(job, _ctx, services, { writer, access }) {
    const link = transcriptUrl(services.operator.publicUrl, job.id);
    services.observe.transcripts.begin(job, [access.token]);
    return quietReport(job, services, writer, async ({ terminal }, state) => {
      const place = placedThread(job);
      if (terminal.kind === "done" && place) {
        const url = await reply(writer, job, place, `${state.answer ?? ""}\n\n<sub>[Transcript](${link})</sub>`);
        return `✅ Answered in the thread: ${url}`;
      }
      const why = headline(terminal);
      services.observe.log.warn(`job ${job.id}: no answer in the review thread: ${why}`);
      // Whoever replied learns there is no answer, and why — also when the thread itself could not be read.
      if (place && terminal.kind !== "cancelled") await sayNoAnswer(writer, job, place, why, link, services.observe.log);
      return why;
    });
  },

  /** The person who replied hears it ended, once. */
  async finaliseInterrupted(job, services) {
    const thread = placedThread(job);
    if (!thread || !job.review?.headSha || job.outcome?.startsWith("⏹")) return;
    const octokit = await services.github.octokitFor(job.target.installationId);
    const why = headline({ kind: "failed", reason: "interrupted" });
    await sayNoAnswer(services.github.writerFor(job.target.installationId, octokit), job, thread, why, transcriptUrl(services.operator.publicUrl, job.id), services.observe.log);
  },
};
