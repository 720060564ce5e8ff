import { parsePlan } from "../chain/parse-plan.js";
import type { ChainDefinition, ParsedPlan, PlanStep } from "../chain/types.js";
import type { JobContext, JobResult } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import { renderPullRequestBody } from "../report/render-pr.js";
import { transcriptUrl } from "../report/render.js";
import { uniqueIssueBranch } from "../workspace/branch.js";
import { commitStep, noreplyIdentity, refusedNotes, type GitIdentity } from "../workspace/commit.js";
import { pushBranch } from "../workspace/push.js";
import { DoneTracker } from "./done-tracker.js";
import type { JobReport } from "./job-report.js";
import { chainFailure, jobTask } from "./outcome.js";
import { inJobFrame, prepareJob, runJobChain } from "./prepare.js";
import type { JobServices } from "./services.js";

/** An approved plan needs no new scout or planner: the worker gets exactly that plan. */
const APPROVED_CHAIN: ChainDefinition = {
  name: "implement-approved-plan",
  file: "(built in)",
  steps: [{ agent: "worker", task: "{task}" }],
};

function approvedTask(job: JobRecord, steps: PlanStep[]): string {
  const plan = steps.map((s) => `${s.n}. ${s.text}`).join("\n");
  return (
    `${jobTask(job, "Implement")}\n\nImplement this plan, which a maintainer approved, step by step. ` +
    `After finishing each plan step n, write \`[DONE:n]\` on its own line. End with \`## Completed\`, \`## Files Changed\` and \`## Notes\`.\n\n## Plan\n${plan}`
  );
}

/** `https://host/o/r.git` → `https://host/o/r`, for links to branches and commits. */
const webUrl = (cloneUrl: string) => cloneUrl.replace(/\.git$/, "");

/**
 * `/implement` on an issue: scout → planner → worker on a fresh checkout of the default branch.
 * Each `[DONE:n]` ticks step n and, when files changed, becomes a commit by the app with the
 * requester as co-author; the branch `crewbot/issue-<n>-<slug>` is pushed with the token as a
 * header only, and a draft pull request that closes the issue is opened. On failure the
 * committed part is still pushed and the comment says what was done and why it stopped.
 */
export async function runImplementJob(job: JobRecord, ctx: JobContext, services: JobServices): Promise<JobResult> {
  return inJobFrame(job, ctx, services, async (report, dirs) => {
    const prepared = await prepareJob(job, report, services, dirs);
    const remote = { checkout: prepared.root, cloneUrl: job.repo.cloneUrl, token: report.freshToken };
    const branch = await uniqueIssueBranch({ ...remote, issue: job.target.number, title: job.subject?.title ?? "" });
    const work = new StepCommits(job, report, prepared.root, services.botIdentity);
    const approved = job.approvedPlan;
    if (approved) work.usePlan({ steps: approved.steps, filesToModify: [] });

    const { result, budget } = await runJobChain(ctx, services, report, prepared, dirs, {
      chain: approved ? APPROVED_CHAIN : prepared.chains.get("implement")!,
      task: approved ? approvedTask(job, approved.steps) : jobTask(job, "Implement"),
      mode: "write",
      observe: (event) => work.observe(event),
      betweenTurns: (agent) => (agent === "worker" ? () => work.commitFinished() : undefined),
    });
    await work.commitRest(job.subject?.title ?? `issue #${job.target.number}`);

    const pushed = await pushBranch({ ...remote, branch, defaultBranch: job.repo.defaultBranch, base: prepared.sha });
    const links = pushed.pushed ? { branch: { name: branch, url: `${webUrl(job.repo.cloneUrl)}/tree/${branch}` } } : {};
    const failed = chainFailure(result, ctx.signal, budget.limits);
    if (failed) return await report.finish({ ...failed, patch: { ...failed.patch, ...work.patch(), links } });
    if (!pushed.pushed) return await report.finish({ terminal: { kind: "failed", reason: "the worker changed no files" }, patch: work.patch() });

    const pr = await report.writer.write<{ number: number; html_url: string }>("POST /repos/{owner}/{repo}/pulls", {
      owner: job.target.owner,
      repo: job.target.repo,
      title: job.subject?.title ?? `Implement #${job.target.number}`,
      head: branch,
      base: job.repo.defaultBranch,
      draft: true,
      body: renderPullRequestBody({
        issueNumber: job.target.number,
        plan: work.planForBody(),
        notes: work.notes,
        usage: budget.usage,
        costUsd: budget.costUsd,
        estimate: budget.estimate,
        elapsedMs: report.state.elapsedMs,
        transcript: transcriptUrl(services.publicUrl, job.id),
      }),
    });
    const prLink = { number: pr.data.number, url: pr.data.html_url };
    return report.finish({ terminal: { kind: "done" }, patch: { ...work.patch(), links: { ...links, pr: prLink } } });
  });
}

/** The plan as the planner wrote it, the worker's ticks, and the commit each finished step became. */
class StepCommits {
  private plan: ParsedPlan = { steps: [], filesToModify: [] };
  private tracker = new DoneTracker(0);
  private pending: number[] = [];
  private readonly commits: Record<number, { sha: string; url: string }> = {};
  readonly notes: string[] = [];

  constructor(
    private readonly job: JobRecord,
    private readonly report: JobReport,
    private readonly checkout: string,
    private readonly author: GitIdentity,
  ) {}

  usePlan(plan: ParsedPlan): void {
    this.plan = plan;
    this.tracker = new DoneTracker(plan.steps.length);
    this.report.set(this.patch());
  }

  observe(event: Parameters<JobReport["event"]>[0]): void {
    if (event.type === "step_end" && event.agent === "planner" && event.output) this.usePlan(parsePlan(event.output));
    if (event.type === "text" && event.agent === "worker") this.pending.push(...this.tracker.push(event.text));
  }

  /** Between the worker's turns: each newly finished step becomes a commit (when files changed). */
  async commitFinished(): Promise<void> {
    const steps = this.pending.splice(0);
    for (const n of steps) await this.commit(this.plan.steps[n - 1]!.text, n);
    if (steps.length > 0) this.report.set(this.patch());
  }

  /** What the worker changed without reporting a step is committed too, rather than lost. */
  async commitRest(title: string): Promise<void> {
    await this.commitFinished();
    await this.commit(`Remaining changes for: ${title}`);
  }

  private async commit(text: string, step?: number): Promise<void> {
    const sender = this.job.trigger.sender;
    const made = await commitStep({
      checkout: this.checkout,
      step: text,
      author: this.author,
      coAuthor: noreplyIdentity(sender, this.job.trigger.senderId),
    });
    this.notes.push(...refusedNotes(made.refused));
    if (made.sha && step !== undefined) this.commits[step] = { sha: made.sha, url: `${webUrl(this.job.repo.cloneUrl)}/commit/${made.sha}` };
  }

  patch() {
    const { goal, steps, risks } = this.plan;
    return { plan: { goal, steps, risks, done: this.tracker.done, commits: { ...this.commits } }, notes: [...this.notes] };
  }

  planForBody() {
    return { goal: this.plan.goal, steps: this.plan.steps, done: this.tracker.done };
  }
}
