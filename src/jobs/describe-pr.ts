/**
 * One summary of a pull request (DESIGN §2): its commits, linked issues and diff read, the
 * describer read-only on its head, and the block written into the description through the
 * writer's `editPullBody`, which re-reads the body before the PATCH. Shared by `/describe`
 * (progress comment) and an automatic review with `review.summary: auto`.
 */
import { parseDiff, type DiffFile } from "../review/diff-lines.js";
import { selectFiles } from "../review/select-files.js";
import { spliceSummary, type Splice } from "../summary/body-block.js";
import { renderSummaryBlock } from "../summary/render-summary.js";
import { linkedIssueNumbers, MAX_LINKED_ISSUES, summaryContext, withoutSummaryBlock } from "../summary/summary-context.js";
import type { SummarySubmission } from "../tools/submit-summary.js";
import { diffBetween, mergeBase } from "../workspace/diff.js";
import type { JobDirs } from "./job-dirs.js";
import type { JobReport } from "./job-report.js";
import { runJobChain } from "./job-frame.js";
import { chainFailure, jobTask, type Ending } from "./outcome.js";
import { prepareJob } from "./prepare.js";
import type { PullRequestRun } from "./pull-request-run.js";

export interface DescribeRun extends PullRequestRun {
  dirs: JobDirs;
  /** Where the describer's events go (the progress comment, or nowhere). */
  events: Pick<JobReport, "event">;
}

export interface DescribeOutcome {
  /** Set when no summary came (chain failed, budget, no submit_summary). */
  failed?: Ending;
  /** What became of the block: written, already as it would be, or left alone as hand-edited (with why). */
  block?: Splice["kind"];
  why?: string;
  headSha?: string;
  /** Times the body had changed between crewbot's read and its write. */
  rereads?: number;
  usage?: import("../agent/budget.js").BudgetTracker["usage"];
  costUsd: number;
  /** When the describer answered (ms since the epoch), for the bench's figure. */
  answeredAt?: number;
}

interface PullFacts {
  body: string | null;
  head: { sha: string; repo: { full_name: string } | null };
  base: { ref: string };
}

async function readSources(run: DescribeRun, pull: PullFacts) {
  const { owner, repo, number } = run.job.target;
  const { data: commits } = (await run.octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}/commits", { owner, repo, pull_number: number, per_page: 100 })) as {
    data: Array<{ sha: string; commit: { message: string } }>;
  };
  const messages = commits.map((c) => ({ sha: c.sha, message: c.commit.message }));
  const numbers = linkedIssueNumbers([withoutSummaryBlock(pull.body ?? ""), ...messages.map((c) => c.message)], number).slice(0, MAX_LINKED_ISSUES);
  const issues = [];
  for (const n of numbers) {
    try {
      const { data } = (await run.octokit.request("GET /repos/{owner}/{repo}/issues/{issue_number}", { owner, repo, issue_number: n })) as { data: { title: string; body?: string | null } };
      issues.push({ number: n, title: data.title, body: data.body ?? "" });
    } catch (error) {
      run.services.observe.log.warn(`job ${run.job.id}: linked issue #${n} not read (${(error as Error).message}); the summary goes on without it`);
    }
  }
  return { commits: messages, issues };
}

const submissionOf = (steps: ReadonlyArray<{ role: string; submission?: { tool: string; value: unknown } }>) => {
  const step = steps.findLast((s) => s.role === "describer");
  return step?.submission?.tool === "submit_summary" ? (step.submission.value as SummarySubmission) : undefined;
};

export async function describePullRequest(run: DescribeRun): Promise<DescribeOutcome> {
  const { job, services, config } = run;
  const { owner, repo, number } = job.target;
  const { data: pull } = (await run.octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", { owner, repo, pull_number: number })) as { data: PullFacts };
  const sources = await readSources(run, pull);
  let files: DiffFile[] = [];
  const prepared = await prepareJob(job, { access: { octokit: run.octokit, token: run.token } }, services, run.dirs, {
    config,
    ref: pull.head.sha,
    headRepo: pull.head.repo?.full_name ?? null,
    withMirror: async (mirror) => {
      const base = await mergeBase(mirror, `refs/heads/${pull.base.ref}`, pull.head.sha);
      files = parseDiff(await diffBetween(mirror, base, pull.head.sha));
    },
    touches: () => files.map((f) => f.path),
  });
  // The walkthrough covers what a reviewer reads: generated and vendored files as the review leaves them out.
  const shown = selectFiles(files, { paths: config.review.paths }).reviewed;
  const { result, budget } = await runJobChain(run.ctx, services, run.events, prepared, run.dirs, {
    chain: prepared.chains.get("describe")!,
    task: job.kind === "describe" && job.trigger.request.trim() ? jobTask(job, "Summarise") : "(none)",
    context: summaryContext({ number, headSha: prepared.sha, ...sources, files: shown.length > 0 ? shown : files }),
  });
  const figures = { usage: budget.usage, costUsd: budget.costUsd, headSha: prepared.sha };
  const failed = chainFailure(result, run.ctx.signal, budget.limits);
  if (failed) return { ...figures, failed };
  const summary = submissionOf(result.steps);
  if (!summary) return { ...figures, failed: { terminal: { kind: "failed", reason: "the describer gave no summary (it did not call submit_summary)" } } };
  const answeredAt = Date.now();
  const block = renderSummaryBlock(summary, { headSha: prepared.sha, clean: (text) => run.writer.redacted(text) });
  let last: Splice = { kind: "unchanged" };
  const edited = await run.writer.editPullBody({ owner, repo, pull_number: number }, (body) => {
    last = spliceSummary(body, block);
    return last.kind === "write" ? last.body : undefined;
  });
  const splice = last as Splice;
  if (edited.rereads > 0) services.observe.log.info(`job ${job.id}: the description changed ${edited.rereads} time(s) while the summary was written; spliced into the newer text`);
  return { ...figures, block: splice.kind, ...("why" in splice ? { why: splice.why } : {}), rereads: edited.rereads, answeredAt };
}
