import type { PlanStep } from "../plan/types.js";
import type { JobContext, JobResult } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import { httpStatus, type GitHubWriter } from "../report/github-writer.js";
import { renderPullRequestBody } from "../report/render-pr.js";
import { transcriptUrl } from "../report/render.js";
import { uniqueIssueBranch } from "../workspace/branch.js";
import { jobTask } from "./outcome.js";
import { inJobFrame } from "./job-frame.js";
import { fromWorker, implementChain, prepareJob, type Prepared } from "./prepare.js";
import { publishBranch } from "./publish-branch.js";
import { askOptions, askRequester, beginResume, endWait, nextRun } from "./question-wait.js";
import type { JobServices } from "./services.js";
import { webUrl } from "../github/urls.js";
import { runWriteChain } from "./write-run.js";

function approvedTask(job: JobRecord, steps: PlanStep[]): string {
  const plan = steps.map((s) => `${s.n}. ${s.text}`).join("\n");
  return (
    `${jobTask(job, "Implement")}\n\nImplement this plan, which a maintainer approved, step by step. ` +
    `As soon as plan step n is done and checked, call \`complete_step\` with \`{"step": n}\` (crewbot commits it then), before you start the next step. End with \`## Completed\`, \`## Files Changed\` and \`## Notes\`.\n\n## Plan\n${plan}`
  );
}

/**
 * `/implement` on an issue: the repository's setup commands, then scout → planner → worker
 * (→ reviewer → worker with `implement.chain: implement-and-review`) on a fresh checkout of
 * the default branch. Each `[DONE:n]` ticks step n and, when files changed, becomes a commit by
 * the app with the requester as co-author; then the check commands. The branch
 * `crewbot/issue-<n>-<slug>` is pushed with the token as a header only, and a draft pull request
 * that closes the issue is opened. On failure the committed part is still pushed and the
 * comment says what was done and why it stopped.
 */
export async function runImplementJob(job: JobRecord, ctx: JobContext, services: JobServices): Promise<JobResult> {
  return inJobFrame(job, ctx, services, async (report, dirs, access) => {
    const next = nextRun(job);
    if (next.kind === "no-answer" || next.kind === "still-waiting") return endWait(job, report, next);
    beginResume(job, report, next, services.observe.log);
    // Going on after an answer: the same commit as before the question, on a fresh checkout.
    const prepared = await prepareJob(job, { access, report }, services, dirs, next.kind === "resume" ? { ref: next.saved.sha } : {});
    const configured = implementChain(prepared);
    const remote = { checkout: prepared.root, cloneUrl: job.repo.cloneUrl, token: access.gitToken };
    const branch = await uniqueIssueBranch({ ...remote, issue: job.target.number, title: job.subject?.title ?? "" });
    const approved = job.approvedPlan;
    const run = await runWriteChain(job, ctx, services, { report, access }, prepared, dirs, {
      // An approved plan needs no new scout or planner: the worker gets exactly that plan.
      chain: approved ? fromWorker(configured, "implement-approved-plan", "{task}", prepared.agents) : configured,
      task: approved ? approvedTask(job, approved.steps) : jobTask(job, "Implement"),
      restMessage: `Remaining changes for: ${job.subject?.title ?? `issue #${job.target.number}`}`,
      plan: approved?.steps,
      asking: askOptions(prepared.policy, next),
    });
    if (run.setupFailed) return report.finish(run.setupFailed);
    if (run.paused) {
      const questionsAsked = next.kind === "resume" ? next.saved.questionsAsked : 0;
      return askRequester(job, report, prepared.policy, { ...run.paused, sha: prepared.sha, questionsAsked });
    }
    const { work, checks, notes, budget, failed, checkFailed } = run;

    const pushed = await publishBranch({ job, report, access, prepared, dirs, publicUrl: services.operator.publicUrl, branch });
    work.useRemoteShas(pushed.remade);
    if (pushed.refused) {
      work.unpublished();
      // When the chain stopped too, its reason heads the comment: the refusal is told below it.
      notes.push(...(failed ? [`The branch was not pushed: ${pushed.refused.reason}`] : []), ...pushed.refused.notes);
    }
    const links = pushed.pushed ? { branch: { name: branch, url: `${webUrl(job.repo.cloneUrl)}/tree/${branch}` } } : {};
    const patch = { ...work.patch(), commands: checks.results, links };
    // A chain that stopped says why it stopped; a refused branch is told among the notes then.
    if (failed) return await report.finish({ ...failed, patch: { ...failed.patch, ...patch } });
    if (pushed.refused) return await report.finish({ terminal: { kind: "failed", reason: pushed.refused.reason }, patch });
    if (!pushed.pushed) return await report.finish({ terminal: { kind: "failed", reason: "the worker changed no files" }, patch });

    const pr = await openPullRequest(job, prepared, services, branch, {
      plan: work.planForBody(),
      notes,
      commands: checks.results,
      usage: budget.usage,
      costUsd: budget.costUsd,
      estimate: budget.estimate,
      elapsedMs: report.state.elapsedMs,
    }, report.writer);
    const terminal = checkFailed ? { kind: "failed" as const, reason: checkFailed } : { kind: "done" as const };
    const prNotes = pr.note ? { notes: [...patch.notes, pr.note] } : {};
    return report.finish({ terminal, patch: { ...patch, ...prNotes, links: { ...links, pr: { number: pr.number, url: pr.url } } } });
  });
}

type BodyParts = Omit<Parameters<typeof renderPullRequestBody>[0], "issueNumber" | "transcript">;

/** GitHub's answer to `draft: true` where the plan has no drafts (private repositories of free organisations). */
export const DRAFTS_REFUSED = /draft pull requests are not supported/i;

/** Said in the PR body and the final comment when GitHub refused the draft. */
export const READY_PR_NOTE = "GitHub does not support draft pull requests in this repository, so this pull request is ready for review instead of a draft";

async function openPullRequest(
  job: JobRecord,
  prepared: Prepared,
  services: JobServices,
  branch: string,
  body: BodyParts,
  writer: GitHubWriter,
): Promise<{ number: number; url: string; note?: string }> {
  const request = (draft: boolean, notes: string[]) =>
    writer.write<{ number: number; html_url: string }>("POST /repos/{owner}/{repo}/pulls", {
      owner: job.target.owner,
      repo: job.target.repo,
      title: job.subject?.title ?? `Implement #${job.target.number}`,
      head: branch,
      base: job.repo.defaultBranch,
      draft,
      body: renderPullRequestBody({ ...body, notes, issueNumber: job.target.number, transcript: transcriptUrl(services.operator.publicUrl, job.id) }),
    });
  const draft = prepared.config.implement.draft;
  try {
    const pr = await request(draft, body.notes);
    return { number: pr.data.number, url: pr.data.html_url };
  } catch (error) {
    if (!draft || httpStatus(error) !== 422 || !DRAFTS_REFUSED.test(errorText(error))) throw error;
    const pr = await request(false, [...body.notes, READY_PR_NOTE]);
    return { number: pr.data.number, url: pr.data.html_url, note: READY_PR_NOTE };
  }
}

/** An Octokit error's message and GitHub's own `message`. */
function errorText(error: unknown): string {
  const e = error as { message?: unknown; response?: { data?: { message?: unknown } } };
  return `${String(e?.message ?? "")} ${String(e?.response?.data?.message ?? "")}`;
}
