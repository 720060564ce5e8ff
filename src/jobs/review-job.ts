/**
 * Review jobs. An automatic review (a pull_request event) reports only in the `crewbot/review`
 * check run: skipped with its reason, or started, then always completed. `/review` runs in the
 * usual progress comment and skips none of the automatic rules; like an automatic review it covers
 * what changed since the last reviewed head, and `/review full` the whole pull request.
 */
import { loadRepoConfig } from "../config/load.js";
import type { CrewbotConfig } from "../config/schema.js";
import type { InstallationOctokit } from "../github/types.js";
import type { JobContext, JobResult } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import { FIX_ACTION } from "../review/check-run.js";
import { headline, transcriptUrl } from "../report/render.js";
import { renderReviewCheck, renderSkippedCheck, reviewLines, countsLine, SKIP_WORDS, type ReviewReport, type SkipRun } from "../review/render-review.js";
import type { Terminal } from "../report/types.js";
import { automaticReviewSkip } from "../review/skip.js";
import { reviewScope } from "../review/review-scope.js";
import { checkoutTrust } from "./checkout-trust.js";
import { blocking, gateSet, type FailOn } from "../review/gate.js";
import { openFindings, type OpenFinding } from "../review/open-findings.js";
import { repoKey } from "../review/review-store.js";
import { pausedReason } from "../review/pauses.js";
import type { GitHubWriter } from "../report/github-writer.js";
import { inJobFrame, inOpenFrame } from "./job-frame.js";
import { checkSpend } from "./spend-check.js";
import type { CheckEnding, JobReport } from "./job-report.js";
import { summaryAfterReview } from "./describe-job.js";
import { reviewPullRequest, type ReviewOutcome } from "./review-pr.js";
import { pullRequestHead, type PullRequestHead } from "../github/pulls.js";
import { answerRefusedResolutions, planWithoutMirror, readThreads, refusedThreadsOf } from "./resolve-threads.js";
import type { JobServices } from "./services.js";

export async function runReviewJob(job: JobRecord, ctx: JobContext, services: JobServices): Promise<JobResult> {
  return job.review?.automatic ? runAutomaticReview(job, ctx, services) : runCommandReview(job, ctx, services);
}


function reviewReport(outcome: ReviewOutcome, terminal: Terminal, head: PullRequestHead, elapsedMs: number, transcript: string, config?: CrewbotConfig): ReviewReport {
  return { ...outcome, terminal, headSha: head.headSha, elapsedMs, transcript, failOn: config?.review.failOn };
}

/** One line for the job store: the headline and what was found. */
function outcomeLine(r: ReviewReport): string {
  if (r.terminal.kind !== "done") return headline(r.terminal);
  if (r.nothingToReview) return `✅ Done · nothing to review: ${r.nothingToReview}`;
  return `✅ Done · ${r.clean ? "no findings" : countsLine(r.counts)}`;
}

/** `/review` covers what changed since the last reviewed head; `/review full` the whole PR. */
async function runCommandReview(job: JobRecord, ctx: JobContext, services: JobServices): Promise<JobResult> {
  const { full, request } = reviewScope(job.trigger.request);
  const asked: JobRecord = { ...job, trigger: { ...job.trigger, request } };
  return inJobFrame(job, ctx, services, async (progress, dirs, access) => {
    const { config } = await loadRepoConfig(access.octokit, job.target);
    await checkSpend(job, services, progress, config);
    const head = await pullRequestHead(access.octokit, job.target);
    const run = { job: asked, ctx, services, octokit: access.octokit, token: access.token, writer: progress.writer, dirs, config, head, events: progress };
    const outcome = await reviewPullRequest({ ...run, full });
    const terminal = outcome.failed?.terminal ?? { kind: "done" };
    const lines = reviewLines(reviewReport(outcome, terminal, head, progress.state.elapsedMs, ""));
    if (outcome.nothingToReview && outcome.since !== undefined) lines.push("Write `/review full` to review the whole pull request again.");
    return progress.finish({ terminal, patch: { ...outcome.failed?.patch, notes: lines } });
  });
}

/**
 * Before any work: a skip with its reason (the config's rules), or the time to wait until (pushes
 * in quick succession: the last one is reviewed; a newer push supersedes this job while it waits).
 * Undefined: review now (the operator's limits are checked when the work begins).
 */
function beforeReview(job: JobRecord, config: CrewbotConfig): { skip?: string; runAt?: number } | undefined {
  const event = job.review!;
  const facts = {
    ...{ title: job.subject?.title ?? "", author: job.subject?.author ?? "", authorType: event.authorType },
    ...{ authorAssociation: event.authorAssociation, draft: event.draft, labels: event.labels },
  };
  const skip = automaticReviewSkip(facts, config.review);
  if (skip) return { skip };
  const runAt = event.event === "synchronize" ? event.eventAt + config.review.debounceSeconds * 1000 : 0;
  return runAt > Date.now() ? { runAt } : undefined;
}

/**
 * With a gate, what is open on the pull request when a review is skipped: the kept findings and
 * crewbot's threads. Nothing is checked out, so only an earlier fix or a writer's closing counts.
 */
async function openBeforeSkip(job: JobRecord, octokit: InstallationOctokit, services: JobServices): Promise<Pick<ReviewOutcome, "open" | "refused">> {
  const { owner, repo, number } = job.target;
  const state = await services.records.reviews.get(repoKey(owner, repo), number);
  if (!state) return { open: [] };
  const read = await readThreads(job, octokit, services);
  const plan = read && planWithoutMirror(read);
  return { open: openFindings(state.findings, plan), ...(read && plan ? { refused: { slug: read.slug, threads: plan.refused } } : {}) };
}

/** Once per thread: a resolution by someone without write permission leaves a finding that holds the gate open. */
async function sayResolutionsRefused(job: JobRecord, writer: GitHubWriter, failOn: FailOn, gate: Pick<ReviewOutcome, "open" | "refused">, services: JobServices): Promise<void> {
  if (!gateSet(failOn) || !gate.refused || gate.refused.threads.length === 0) return;
  const held = new Set(blocking(failOn, gate.open ?? []).flatMap((f: OpenFinding) => (f.fingerprint ? [f.fingerprint] : [])));
  const threads = refusedThreadsOf({ refused: gate.refused.threads }, held);
  await answerRefusedResolutions(job, writer, threads, { slug: gate.refused.slug, headSha: job.review!.headSha, failOn, log: services.observe.log });
}

/** A skipped automatic review: its reason (a rule, a limit, a pause) in a completed check run, with what holds the gate open. */
async function skipReview(job: JobRecord, report: JobReport, octokit: InstallationOctokit, config: CrewbotConfig, reason: string, services: JobServices, run: SkipRun = "skipped"): Promise<JobResult> {
  const { failOn } = config.review;
  const open = gateSet(failOn) ? await openBeforeSkip(job, octokit, services) : { open: [] };
  await sayResolutionsRefused(job, report.writer, failOn, open, services);
  return report.finish({ terminal: { kind: "done" }, check: renderSkippedCheck(reason, { failOn, open: open.open, run }), outcome: `${SKIP_WORDS[run].outcome}: ${reason}` });
}

/** A monthly cap at 80 % or more (set when the work began): said first in the check run's summary. */
function withSpendNotice(check: CheckEnding, notice: string | undefined): CheckEnding {
  return notice ? { ...check, output: { ...check.output, summary: `${notice}\n\n${check.output.summary}` } } : check;
}

/** An automatic review: its surface is the check run (jobs/check-run-surface.ts), started when the review begins. */
async function runAutomaticReview(job: JobRecord, ctx: JobContext, services: JobServices): Promise<JobResult> {
  return inOpenFrame(job, ctx, services, async ({ report, access, begin }) => {
    const { octokit } = access;
    const event = job.review!;
    const head: PullRequestHead = { headSha: event.headSha, baseRef: event.baseRef, headRepo: event.headRepo };
    const started = Date.now();
    const { config } = await loadRepoConfig(octokit, job.target);
    if (!config.review.auto) {
      // Off means off: not even a skipped check run on every push of every PR.
      services.observe.log.info(`job ${job.id}: automatic review not run: review.auto is false (no check run)`);
      return report.finish({ terminal: { kind: "done" }, check: null, outcome: "✅ Skipped: automatic reviews are off (review.auto: false); no check run" });
    }
    // Paused by a writer: said at once (no debounce), with no model call and no summary.
    const paused = await services.records.pauses.get(repoKey(job.target.owner, job.target.repo), job.target.number);
    if (paused) return skipReview(job, report, octokit, config, pausedReason(paused), services, "paused");
    const before = beforeReview(job, config);
    if (before?.runAt) return { state: "deferred", runAt: before.runAt };
    if (before?.skip) return skipReview(job, report, octokit, config, before.skip, services);
    const begun = await begin(config);
    if ("limit" in begun) return skipReview(job, report, octokit, config, begun.limit.reason, services, begun.limit.capped ? "capped" : "skipped");
    const { failOn } = config.review;
    const run = { job, ctx, services, octokit, token: access.token, writer: report.writer, dirs: begun.dirs, config, head, events: report };
    const outcome = await reviewPullRequest({ ...run, full: false });
    const terminal: Terminal = outcome.failed?.terminal ?? { kind: "done" };
    await sayResolutionsRefused(job, report.writer, failOn, outcome, services);
    const done = reviewReport(outcome, terminal, head, Date.now() - started, transcriptUrl(services.operator.publicUrl, job.id), config);
    // The button only where a click can push (not a fork's branch) and there is an open thread to fix.
    const fixable = config.review.fixAction && checkoutTrust(job.target, head.headRepo) === "trusted" && terminal.kind === "done" && (outcome.threads?.open ?? outcome.inline) > 0;
    const check = withSpendNotice({ ...renderReviewCheck(done), actions: fixable ? [FIX_ACTION] : [] }, report.state.spendNotice);
    const ended = await report.finish({ terminal, check, outcome: outcomeLine(done) });
    if (terminal.kind !== "cancelled") await summaryAfterReview({ job, ctx, services, octokit, token: access.token, writer: report.writer, config, events: report });
    return ended;
  });
}
