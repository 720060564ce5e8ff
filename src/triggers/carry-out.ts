import type { InstallationOctokit } from "../github/types.js";
import type { JobQueue } from "../queue/job-queue.js";
import type { JobRunner } from "../queue/runner.js";
import { postedCommentId, targetKey, type EnqueueResult, type NewJob } from "../queue/types.js";
import type { GitHubWriter } from "../report/github-writer.js";
import { endJobComment } from "../report/job-comment.js";
import { postReply, type ReportTarget } from "../report/progress-reporter.js";
import { renderHelp, renderNotAllowed, transcriptUrl } from "../report/render.js";
import { answerQuestion } from "./answer-question.js";
import { renderApproved } from "../plan/approval.js";
import type { Background } from "./background.js";
import type { CommentPayload, Decision } from "./comment-command.js";
import type { TriggerLog } from "./deps.js";
import { announceQueued } from "./queued-comment.js";
import { carryOutPause } from "./pause-command.js";
import { automaticReviewJob, type PullRequestPayload } from "./pull-request-event.js";
import { carryOutInsights } from "./insights-command.js";
import type { InsightsSource } from "../insights/types.js";
import type { PauseStore } from "../review/pauses.js";
import type { ReplyLimiter, ReplyPlace } from "./stranger-replies.js";

export interface ActDeps {
  queue: JobQueue;
  /** Pull requests a writer paused (`/crewbot pause`). */
  pauses: PauseStore;
  /** The repositories' figures (`/crewbot insights`); none: the command says they are not kept. */
  insights?: InsightsSource;
  runner: Pick<JobRunner, "wake" | "cancel" | "answer">;
  writerFor(installationId: number, octokit: InstallationOctokit): GitHubWriter;
  /** Every reply to someone without write permission who started nothing: once per person and issue an hour, from its own budget. */
  replies: ReplyLimiter;
  background: Background;
  publicUrl: string;
  log: TriggerLog;
}

/** What this version runs, for the help text. */
const HELP = renderHelp();

/**
 * Carries out a trigger's decision. Only the enqueue (local) and the cancel are awaited; every
 * GitHub write runs in the background through the installation's writer.
 */
export function createAct(deps: ActDeps) {
  return async (decision: Decision, octokit: InstallationOctokit, payload: CommentPayload, writer: boolean): Promise<void> => {
    const installationId = payload.installation!.id;
    const writerOf = () => deps.writerFor(installationId, octokit);
    const number = (payload.issue ?? payload.pull_request)!.number;
    const target: ReportTarget = { owner: payload.repository.owner.login, repo: payload.repository.name, number };
    const place = { installationId, login: payload.comment?.user?.login ?? payload.sender.login, writer, ...target };
    const reply = (body: string, what: string) => deps.background.run(replyOnce(deps, writerOf, place, body, what), what);

    switch (decision.action) {
      case "help":
        return reply(decision.unknown ? `Unknown command \`${decision.unknown}\`.\n\n${HELP}` : HELP, "help");
      case "not-allowed":
        deps.log.info({ login: decision.login, ...target }, "command by someone without write access");
        return reply(renderNotAllowed(decision.login), "not-allowed reply");
      case "reply":
        deps.log.info({ reason: decision.reason, ...target }, "command answered without a job");
        return reply(decision.body, decision.reason);
      case "cancel": {
        const jobs = await deps.runner.cancel(targetKey(target), decision.by);
        if (jobs.length === 0) return reply("There is no crewbot job running or queued here.", "nothing to cancel");
        // A running job ends its own comment; a queued one never started, so its comment is ended here.
        for (const job of jobs.filter((j) => j.state === "cancelled")) {
          const ended = endJobComment(job, writerOf(), deps.publicUrl, { kind: "cancelled", by: decision.by }, deps.log);
          deps.background.run(ended, `cancel of queued job ${job.id}`);
        }
        return;
      }
      case "pause":
        return carryOutPause(deps.pauses, decision, target, reply, () => reviewAfterResume(deps, octokit, payload, target, decision.by));
      case "insights":
        return carryOutInsights(deps, target, reply);
      case "answer":
        return answerQuestion(deps, decision, target, reply);
      case "approve": {
        const { job, duplicate } = await deps.queue.enqueue(decision.job);
        if (duplicate) return deps.log.info({ jobId: job.id }, "plan already approved: no second job");
        deps.log.info({ jobId: job.id, planJobId: decision.job.approvedPlan?.planJobId, by: decision.by }, "plan approved: implement job queued");
        deps.runner.wake();
        const body = renderApproved(decision.planBody, decision.by, job.id, transcriptUrl(deps.publicUrl, job.id));
        const edit = writerOf().write("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", {
          owner: target.owner,
          repo: target.repo,
          comment_id: decision.planCommentId,
          body,
        });
        return deps.background.run(edit, `approved edit of the plan of ${job.id}`);
      }
      case "enqueue": {
        const queued = await enqueueJob(deps, decision.job, octokit);
        if (queued?.waitingBehind) deps.background.run(announceQueued(queued.job, queued.waitingBehind, writerOf(), deps), `queued comment of ${queued.job.id}`);
        return;
      }
    }
  };
}

/**
 * A reply to someone whose comment started nothing, if the limiter lets it through (a writer's
 * always is); else only a log line. Someone without write permission is answered apart from the
 * jobs' write budget; a writer's answer is one of their writes like their jobs'.
 */
async function replyOnce(deps: ActDeps, writer: () => GitHubWriter, place: ReplyPlace, body: string, what: string): Promise<void> {
  const verdict = await deps.replies.allow(place);
  const { installationId, login, owner, repo, number } = place;
  if (!verdict.reply) return deps.log.info({ installationId, login, owner, repo, number, what, reason: verdict.reason }, "reply not posted: already answered, or the replies' budget is spent");
  await postReply(writer(), { owner, repo, number }, body, deps.log, { apart: !place.writer });
}

/**
 * Stores a job and wakes the runner. A redelivery is dropped; jobs it supersedes (an older push's
 * review) that were still queued end their progress comment, if they had one, in the background.
 */
export async function enqueueJob(deps: ActDeps, newJob: NewJob, octokit: InstallationOctokit): Promise<EnqueueResult | undefined> {
  const result = await deps.queue.enqueue(newJob);
  const { job, duplicate } = result;
  if (duplicate) return void deps.log.info({ deliveryId: newJob.deliveryId, jobId: job.id }, "duplicate delivery dropped");
  const { owner, repo, number } = job.target;
  deps.log.info({ jobId: job.id, deliveryId: job.deliveryId, owner, repo, number, kind: job.kind }, "job queued");
  deps.runner.wake();
  for (const old of result.superseded ?? []) {
    if (old.state !== "cancelled" || postedCommentId(old) === undefined) continue;
    const writer = deps.writerFor(old.target.installationId, octokit);
    const ended = endJobComment(old, writer, deps.publicUrl, { kind: "cancelled", reason: `a newer review took over (job ${job.id})` }, deps.log);
    deps.background.run(ended, `superseded comment of ${old.id}`);
  }
  return result;
}

/**
 * After a resume, the automatic review of the pull request's head as it is now (event `resumed`:
 * no debounce); the job applies the config's rules as for a push. False, with a log line, when the
 * pull request could not be read or is no longer open.
 */
async function reviewAfterResume(deps: ActDeps, octokit: InstallationOctokit, payload: CommentPayload, target: ReportTarget, by: string): Promise<boolean> {
  const { owner, repo, number } = target;
  try {
    const { data: pr } = await octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", { owner, repo, pull_number: number });
    if (pr.state !== "open") return false;
    const on = { pull_request: pr as unknown as PullRequestPayload["pull_request"], repository: payload.repository, sender: { login: by, type: "User" }, installation: payload.installation! };
    const job = automaticReviewJob(on, "resumed", `resume-${payload.comment?.id ?? Date.now()}`, Date.now());
    await enqueueJob(deps, job, octokit);
    return true;
  } catch (error) {
    deps.log.warn({ owner, repo, number, err: (error as Error).message }, "resume: the pull request's head could not be queued for review");
    return false;
  }
}
