/**
 * `/describe` (in the usual progress comment), and the summary an automatic review writes with
 * `review.summary: auto` (no comment of its own). A block edited by hand is left alone: `/describe`
 * says why in its comment; an automatic run says it once per pull request, in a comment marked so.
 */
import type { JobRecord } from "../queue/types.js";
import type { GitHubWriter } from "../report/github-writer.js";
import type { JobContext, JobResult } from "../queue/runner.js";
import { loadRepoConfig } from "../config/load.js";
import { cleanJobDirs, makeJobDirs } from "./job-dirs.js";
import { assertCommandOn } from "./prepare.js";
import { inJobFrame } from "./job-frame.js";
import { checkSpend } from "./spend-check.js";
import { describePullRequest, type DescribeOutcome } from "./describe-pr.js";
import type { PullRequestRun } from "./pull-request-run.js";
import type { JobReport } from "./job-report.js";
import type { JobServices } from "./services.js";

/** The marker of the one comment that says why an automatic run left a hand-edited block alone. */
export const HAND_EDITED_MARKER = "<!-- crewbot:summary:hand-edited -->";

const LEFT_ALONE = (why: string) =>
  `crewbot left the summary block in the description as it is: ${why}. crewbot does not overwrite a block someone edited; delete the block (from \`<!-- crewbot:summary:start -->\` to \`<!-- crewbot:summary:end -->\`) and write \`/describe\` for a fresh one.`;

/** The progress comment's last lines for `/describe`. */
export function describeNotes(outcome: DescribeOutcome): string[] {
  if (outcome.block === "write") return ["The summary is in the pull request's description."];
  if (outcome.block === "unchanged") return ["The summary in the description was already up to date."];
  if (outcome.block === "hand-edited") return [LEFT_ALONE(outcome.why ?? "it was edited by hand")];
  if (outcome.block === "too-long") return [`The summary was not written: ${outcome.why ?? "the description is too long"}.`];
  return [];
}

export async function runDescribeJob(job: JobRecord, ctx: JobContext, services: JobServices): Promise<JobResult> {
  return inJobFrame(job, ctx, services, async (progress, dirs, access) => {
    const { config } = await loadRepoConfig(access.octokit, job.target);
    // `commands.describe: false` ends it before the pull request is read.
    assertCommandOn(job, config);
    await checkSpend(job, services, progress, config);
    const run = { job, ctx, services, octokit: access.octokit, token: access.token, writer: progress.writer, dirs, config, events: progress };
    const outcome = await describePullRequest(run);
    if (outcome.failed) return progress.finish(outcome.failed);
    return progress.finish({ terminal: { kind: "done" }, patch: { notes: describeNotes(outcome) } });
  });
}

/** Once per pull request: a comment with the marker already there means it was said. */
async function sayHandEditedOnce(job: JobRecord, writer: GitHubWriter, why: string): Promise<boolean> {
  const { owner, repo, number } = job.target;
  for (let page = 1; page <= 10; page += 1) {
    const { data } = await writer.read<Array<{ body?: string | null }>>("GET /repos/{owner}/{repo}/issues/{issue_number}/comments", { owner, repo, issue_number: number, per_page: 100, page });
    if (data.some((c) => c.body?.includes(HAND_EDITED_MARKER))) return false;
    if (data.length < 100) break;
  }
  await writer.write("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { owner, repo, issue_number: number, body: `${LEFT_ALONE(why)}\n\n${HAND_EDITED_MARKER}` });
  return true;
}

/** The automatic review's run, as the summary after it needs it: its events are counted with the job's (its cost, by the frame). */
export type AutoSummaryRun = PullRequestRun & { events: Pick<JobReport, "event"> };

/**
 * The summary of an automatic review's job (`review.summary: auto`), after its review: its own
 * folders (the review's checkout stays the review's), its cost counted with the job's through its
 * events. A failure is logged and costs only the summary, never the review.
 */
export async function summaryAfterReview(run: AutoSummaryRun): Promise<DescribeOutcome | undefined> {
  if (run.config.review.summary !== "auto") return undefined;
  const { job, services } = run;
  const dirs = await makeJobDirs(services.runtime.dataDir, `${job.id}-summary`);
  try {
    const outcome = await describePullRequest({ ...run, dirs });
    if (outcome.failed) services.observe.log.warn(`job ${job.id}: no summary written: ${outcome.failed.terminal.kind === "failed" ? outcome.failed.terminal.reason : outcome.failed.terminal.kind}`);
    if (outcome.block === "too-long") services.observe.log.warn(`job ${job.id}: no summary written: ${outcome.why}`);
    if (outcome.block === "hand-edited") await sayHandEditedOnce(job, run.writer, outcome.why ?? "it was edited by hand");
    return outcome;
  } catch (error) {
    services.observe.log.warn(`job ${job.id}: no summary written: ${(error as Error).message}`);
    return undefined;
  } finally {
    await cleanJobDirs(dirs).catch(() => undefined);
  }
}
