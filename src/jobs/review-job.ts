/**
 * Review jobs. An automatic review (a pull_request event) reports only in the `crewbot/review`
 * check run: skipped with its reason, or started, then always completed. `/review` runs in the
 * usual progress comment and skips none of the automatic rules; like an automatic review it covers
 * what changed since the last reviewed head, and `/review full` the whole pull request.
 */
import type { AgentEvent } from "../agent/events.js";
import { loadRepoConfig } from "../config/load.js";
import type { CrewbotConfig } from "../config/schema.js";
import { limitReached } from "../installations/limits.js";
import { ConfigError } from "../config/validate.js";
import type { InstallationOctokit } from "../github/types.js";
import type { JobContext, JobResult } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import { CheckRun, FIX_ACTION } from "../review/check-run.js";
import { headline, transcriptUrl } from "../report/render.js";
import { renderReviewCheck, renderSkippedCheck, reviewLines, countsLine, type ReviewReport } from "../review/render-review.js";
import type { Terminal } from "../report/types.js";
import { automaticReviewSkip } from "../review/skip.js";
import { reviewScope } from "../review/review-scope.js";
import { checkoutTrust } from "./checkout-trust.js";
import { blocking, gateSet, type FailOn } from "../review/gate.js";
import { openFindings, type OpenFinding } from "../review/open-findings.js";
import { repoKey } from "../review/review-store.js";
import type { GitHubWriter } from "../report/github-writer.js";
import { cleanJobDirs, makeJobDirs, type JobDirs } from "./job-dirs.js";
import { endState } from "./job-report.js";
import { failure } from "./outcome.js";
import { inJobFrame } from "./job-frame.js";
import { summaryAfterReview } from "./describe-job.js";
import { reviewPullRequest, type PullRequestHead, type ReviewOutcome } from "./review-pr.js";
import { answerRefusedResolutions, planWithoutMirror, readThreads, refusedThreadsOf } from "./resolve-threads.js";
import type { JobServices } from "./services.js";

export async function runReviewJob(job: JobRecord, ctx: JobContext, services: JobServices): Promise<JobResult> {
  return job.review?.automatic ? runAutomaticReview(job, ctx, services) : runCommandReview(job, ctx, services);
}


/** The PR as it is now (for `/review`, which names no commit). */
export async function pullRequestHead(octokit: InstallationOctokit, job: JobRecord): Promise<PullRequestHead> {
  const { owner, repo, number } = job.target;
  const { data } = (await octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", { owner, repo, pull_number: number })) as {
    data: { head: { sha: string; repo: { full_name: string } | null }; base: { ref: string } };
  };
  const headRepo = data.head.repo?.full_name ?? null;
  return { headSha: data.head.sha, baseRef: data.base.ref, headRepo };
}

function report(outcome: ReviewOutcome, terminal: Terminal, head: PullRequestHead, elapsedMs: number, transcript: string, config?: CrewbotConfig): ReviewReport {
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
    const head = await pullRequestHead(access.octokit, job);
    const run = { job: asked, ctx, services, octokit: access.octokit, token: access.token, writer: progress.writer, dirs, config, head, events: progress };
    const outcome = await reviewPullRequest({ ...run, full });
    const terminal = outcome.failed?.terminal ?? { kind: "done" };
    const lines = reviewLines(report(outcome, terminal, head, progress.state.elapsedMs, ""));
    if (outcome.nothingToReview && outcome.since !== undefined) lines.push("Write `/review full` to review the whole pull request again.");
    return progress.finish({ terminal, patch: { ...outcome.failed?.patch, notes: lines } });
  });
}

/**
 * Before any work: a skip with its reason (the config's rules, an operator limit), or the time
 * to wait until (pushes in quick succession: the last one is reviewed; a newer push supersedes
 * this job while it waits). Undefined: review now.
 */
async function beforeReview(job: JobRecord, config: CrewbotConfig, services: JobServices): Promise<{ skip?: string; runAt?: number } | undefined> {
  const event = job.review!;
  const facts = {
    ...{ title: job.subject?.title ?? "", author: job.subject?.author ?? "", authorType: event.authorType },
    ...{ authorAssociation: event.authorAssociation, draft: event.draft, labels: event.labels },
  };
  const skip = automaticReviewSkip(facts, config.review);
  if (skip) return { skip };
  const runAt = event.event === "synchronize" ? event.eventAt + config.review.debounceSeconds * 1000 : 0;
  if (runAt > Date.now()) return { runAt };
  const limit = await limitReached(services.limits, services.usage, job.target.installationId);
  return limit ? { skip: limit } : undefined;
}

/**
 * With a gate, what is open on the pull request when a review is skipped: the kept findings and
 * crewbot's threads. Nothing is checked out, so only an earlier fix or a writer's closing counts.
 */
async function openBeforeSkip(job: JobRecord, octokit: InstallationOctokit, services: JobServices): Promise<Pick<ReviewOutcome, "open" | "refused">> {
  const { owner, repo, number } = job.target;
  const state = await services.reviews.get(repoKey(owner, repo), number);
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
  await answerRefusedResolutions(job, writer, threads, { slug: gate.refused.slug, headSha: job.review!.headSha, failOn, log: services.log });
}

/** The check run links the transcript: the reviewer's events are recorded as a comment job's are, once it starts. */
function reviewTranscript(job: JobRecord, token: string, services: JobServices) {
  let recording = false;
  return {
    begin: () => void ((recording = true), services.transcripts?.begin(job, [token])),
    event: (e: AgentEvent) => void (recording && services.transcripts?.append(job.id, e)),
    end: async (terminal: Terminal, line: string) => void (recording && (await services.transcripts?.end(job.id, terminal, line))),
  };
}

async function runAutomaticReview(job: JobRecord, ctx: JobContext, services: JobServices): Promise<JobResult> {
  const event = job.review!;
  const { owner, repo, installationId } = job.target;
  const octokit = await services.octokitFor(installationId);
  const token = await services.tokenFor(octokit);
  const writer = services.writerFor(installationId, octokit, [token]);
  const transcriptLink = transcriptUrl(services.publicUrl, job.id);
  const check = new CheckRun(writer, { owner, repo, headSha: event.headSha, detailsUrl: transcriptLink, externalId: job.id });
  const head: PullRequestHead = { headSha: event.headSha, baseRef: event.baseRef, headRepo: event.headRepo };
  const started = Date.now();
  const transcript = reviewTranscript(job, token, services);
  let dirs: JobDirs | undefined;
  try {
    // Run again after its process died: the check run it started is the one it goes on with.
    if (job.attempts > 1) await check.resume(octokit, services.appId);
    const { config } = await loadRepoConfig(octokit, job.target);
    if (!config.review.auto) {
      // Off means off: not even a skipped check run on every push of every PR.
      services.log.info(`job ${job.id}: automatic review not run: review.auto is false (no check run)`);
      return { state: "succeeded", outcome: "✅ Skipped: automatic reviews are off (review.auto: false); no check run" };
    }
    const before = await beforeReview(job, config, services);
    const { failOn } = config.review;
    if (before?.skip) {
      const open = gateSet(failOn) ? await openBeforeSkip(job, octokit, services) : { open: [] };
      await sayResolutionsRefused(job, writer, failOn, open, services);
      const { conclusion, output } = renderSkippedCheck(before.skip, { failOn, open: open.open });
      await check.complete(conclusion, output);
      return { state: "succeeded", outcome: `✅ Skipped: ${before.skip}` };
    }
    if (before?.runAt) return { state: "deferred", runAt: before.runAt };
    await services.usage.recordStart(installationId, job.id, Date.now());

    await check.start();
    transcript.begin();
    dirs = await makeJobDirs(services.dataDir, job.id);
    const outcome = await reviewPullRequest({ job, ctx, services, octokit, token, writer, dirs, config, head, events: transcript, full: false });
    if (outcome.usage) services.metrics.jobUsage(job.kind, outcome.usage, outcome.costUsd);
    if (outcome.costUsd > 0) await services.usage.recordCost(installationId, job.id, outcome.costUsd);
    const terminal: Terminal = outcome.failed?.terminal ?? { kind: "done" };
    await sayResolutionsRefused(job, writer, failOn, outcome, services);
    const done = report(outcome, terminal, head, Date.now() - started, transcriptLink, config);
    const { conclusion, output, annotations } = renderReviewCheck(done);
    await transcript.end(terminal, outcomeLine(done));
    // The button only where a click can push (not a fork's branch) and there is an open thread to fix.
    const fixable = config.review.fixAction && checkoutTrust(job.target, head.headRepo) === "trusted" && terminal.kind === "done" && (outcome.threads?.open ?? outcome.inline) > 0;
    await check.complete(conclusion, output, annotations, fixable ? [FIX_ACTION] : []);
    if (terminal.kind !== "cancelled") await summaryAfterReview({ job, ctx, services, octokit, token, writer, config });
    return { state: endState(terminal), outcome: outcomeLine(done) };
  } catch (error) {
    const { terminal } = failure(error, ctx.signal);
    await transcript.end(terminal, headline(terminal));
    const problems = error instanceof ConfigError ? error.problems.map((p) => `- ${p}`).join("\n") : undefined;
    const summary = [problems ?? headline(terminal), `\n[Transcript](${transcriptLink})`].join("\n");
    const conclusion = terminal.kind === "cancelled" ? "cancelled" : "failure";
    await check.complete(conclusion, { title: headline(terminal).replace(/^\S+ /, ""), summary }).catch((err: unknown) => {
      services.log.warn(`job ${job.id}: could not complete the check run: ${(err as Error).message}`);
    });
    return { state: endState(terminal), outcome: headline(terminal) };
  } finally {
    if (dirs) await cleanJobDirs(dirs).catch(() => undefined);
  }
}
