import type { PlanStep } from "../chain/types.js";
import type { JobContext, JobResult } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import type { GitHubWriter } from "../report/github-writer.js";
import { renderPullRequestBody } from "../report/render-pr.js";
import { transcriptUrl } from "../report/render.js";
import { uniqueIssueBranch } from "../workspace/branch.js";
import { pushBranch } from "../workspace/push.js";
import { jobTask } from "./outcome.js";
import { fromWorker, implementChain, inJobFrame, prepareJob, type Prepared } from "./prepare.js";
import type { JobServices } from "./services.js";
import { webUrl } from "./step-commits.js";
import { runWriteChain } from "./write-run.js";

function approvedTask(job: JobRecord, steps: PlanStep[]): string {
  const plan = steps.map((s) => `${s.n}. ${s.text}`).join("\n");
  return (
    `${jobTask(job, "Implement")}\n\nImplement this plan, which a maintainer approved, step by step. ` +
    `After finishing each plan step n, write \`[DONE:n]\` on its own line. End with \`## Completed\`, \`## Files Changed\` and \`## Notes\`.\n\n## Plan\n${plan}`
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
  return inJobFrame(job, ctx, services, async (report, dirs) => {
    const prepared = await prepareJob(job, report, services, dirs);
    const configured = implementChain(prepared);
    const remote = { checkout: prepared.root, cloneUrl: job.repo.cloneUrl, token: report.freshToken };
    const branch = await uniqueIssueBranch({ ...remote, issue: job.target.number, title: job.subject?.title ?? "" });
    const approved = job.approvedPlan;
    const run = await runWriteChain(job, ctx, services, report, prepared, dirs, {
      // An approved plan needs no new scout or planner: the worker gets exactly that plan.
      chain: approved ? fromWorker(configured, "implement-approved-plan", "{task}") : configured,
      task: approved ? approvedTask(job, approved.steps) : jobTask(job, "Implement"),
      restMessage: `Remaining changes for: ${job.subject?.title ?? `issue #${job.target.number}`}`,
      plan: approved?.steps,
    });
    if (run.setupFailed) return report.finish(run.setupFailed);
    const { work, checks, notes, budget, failed, checkFailed } = run;

    const pushed = await pushBranch({ ...remote, branch, defaultBranch: job.repo.defaultBranch, base: prepared.sha });
    const links = pushed.pushed ? { branch: { name: branch, url: `${webUrl(job.repo.cloneUrl)}/tree/${branch}` } } : {};
    const patch = { ...work.patch(), commands: checks.results, links };
    if (failed) return await report.finish({ ...failed, patch: { ...failed.patch, ...patch } });
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
    return report.finish({ terminal, patch: { ...patch, links: { ...links, pr } } });
  });
}

type BodyParts = Omit<Parameters<typeof renderPullRequestBody>[0], "issueNumber" | "transcript">;

async function openPullRequest(
  job: JobRecord,
  prepared: Prepared,
  services: JobServices,
  branch: string,
  body: BodyParts,
  writer: GitHubWriter,
): Promise<{ number: number; url: string }> {
  const pr = await writer.write<{ number: number; html_url: string }>("POST /repos/{owner}/{repo}/pulls", {
    owner: job.target.owner,
    repo: job.target.repo,
    title: job.subject?.title ?? `Implement #${job.target.number}`,
    head: branch,
    base: job.repo.defaultBranch,
    draft: prepared.config.implement.draft,
    body: renderPullRequestBody({ ...body, issueNumber: job.target.number, transcript: transcriptUrl(services.publicUrl, job.id) }),
  });
  return { number: pr.data.number, url: pr.data.html_url };
}
