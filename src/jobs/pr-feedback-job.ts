import { cleanText } from "../text/clean-text.js";
import { failureSections, headFailures } from "../context/check-failures.js";
import type { JobContext, JobResult } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import type { GitHubWriter } from "../report/github-writer.js";
import { neutraliseMentions } from "../text/github-markdown.js";
import { checkoutTrust, trustRefusal } from "./checkout-trust.js";
import { inJobFrame } from "./job-frame.js";
import { fromWorker, implementChain, prepareJob } from "./prepare.js";
import { publishToPullRequest } from "./publish-branch.js";
import { ownCheckApps, type JobServices } from "./services.js";
import { runWriteChain } from "./write-run.js";

const FEEDBACK_TASK =
  "A maintainer asked for changes on this pull request; its conversation is in the context. " +
  "Make the changes on the pull request's branch (the checkout). There is no numbered plan: write no [DONE:n] markers. " +
  "End with `## Completed`, `## Files Changed` and `## Notes`.\n\nThe request:\n{task}";

interface PullRequestHead {
  head: { ref: string; sha: string; repo: { full_name: string } | null };
}

/**
 * `/implement <feedback>` on a pull request (a PR comment or a review comment): the worker on
 * the PR's own branch, its changes committed as the bot and pushed there. A PR from a fork is
 * refused: no installation token can push to it. A review comment gets its answer in its thread.
 */
export async function runFeedbackJob(job: JobRecord, ctx: JobContext, services: JobServices): Promise<JobResult> {
  return inJobFrame(job, ctx, services, async (report, dirs, access) => {
    const { owner, repo, number } = job.target;
    const { data: pr } = (await access.octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", { owner, repo, pull_number: number })) as {
      data: PullRequestHead;
    };
    const headRepo = pr.head.repo?.full_name ?? null;
    const refusal = trustRefusal("implement-pr-feedback", checkoutTrust(job.target, headRepo));
    if (refusal) return report.finish({ terminal: { kind: "failed", reason: refusal } });
    const prepared = await prepareJob(job, { access, report }, services, dirs, { headRepo });
    // The failing checks of the PR's head are part of what the person is looking at (crewbot's own review check aside).
    const failures = await headFailures({ octokit: access.octokit, owner, repo, artifactsDir: dirs.artifactsDir, ignoreApps: await ownCheckApps(services.github) }, pr.head.sha).catch((err: unknown) => {
      services.observe.log.warn(`job ${job.id}: the failing checks of ${pr.head.sha.slice(0, 7)} could not be read: ${(err as Error).message}`);
      return [];
    });
    prepared.context.push(...failureSections(failures, pr.head.sha, prepared.root));
    // The PR is the plan: the worker, then what follows it in the configured chain (a review).
    const chain = fromWorker(implementChain(prepared), "implement-feedback", FEEDBACK_TASK, prepared.agents);
    const run = await runWriteChain(job, ctx, services, { report, access }, prepared, dirs, {
      chain,
      task: cleanText(job.trigger.request).trim() || "Address the review comments.",
      restMessage: `Address feedback: ${job.trigger.request.split("\n")[0]?.trim() || "review comments"}`,
    });
    if (run.setupFailed) return report.finish(run.setupFailed);
    const { pushed, ending } = await publishToPullRequest({ job, report, access, prepared, dirs, publicUrl: services.operator.publicUrl, headRef: pr.head.ref, run, unchanged: "the worker changed no files" });
    const final = await report.finish({ ...ending, patch: { notes: run.notes, commands: run.checks.results } });
    if (job.trigger.commentKind === "review_comment" && job.trigger.commentId !== undefined) {
      const answer = pushed.pushed ? `Done in ${pushed.sha.slice(0, 7)}. ${final.outcome}` : final.outcome;
      await replyInThread(job, report.writer, pr.head.sha, neutraliseMentions(answer)).catch((err: unknown) => {
        services.observe.log.warn(`job ${job.id}: could not answer in the review thread (the progress comment has the outcome): ${(err as Error).message}`);
      });
    }
    return final;
  });
}


/**
 * The answer in the review thread of the triggering comment. GitHub threads are flat: a reply
 * goes to the thread's top-level comment (`in_reply_to`), never to a reply, and through
 * `POST …/pulls/{n}/comments` — the `…/replies` route is not enabled for GitHub Apps. With
 * `in_reply_to` GitHub ignores every field but `body`; `commit_id` and `path` are sent because
 * the API's description lists them as required.
 */
function replyInThread(job: JobRecord, writer: GitHubWriter, headSha: string, body: string) {
  const { owner, repo, number } = job.target;
  const place = job.trigger.reviewComment;
  return writer.write("POST /repos/{owner}/{repo}/pulls/{pull_number}/comments", {
    owner,
    repo,
    pull_number: number,
    body,
    in_reply_to: place?.inReplyToId ?? job.trigger.commentId,
    commit_id: headSha,
    path: place?.path ?? "",
  });
}
