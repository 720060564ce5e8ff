import type { AgentEvent } from "../agent/events.js";
import { planOf } from "../plan/plan-result.js";
import { oneLine } from "../tools/index.js";
import { ToolError } from "../tools/types.js";
import type { ParsedPlan } from "../plan/types.js";
import type { ContextSection } from "../text/prompt.js";
import type { JobRecord } from "../queue/types.js";
import type { ProgressState } from "../report/types.js";
import { redact } from "../secrets/redact.js";
import { git } from "../workspace/git.js";
import type { GitIdentity } from "../github/types.js";
import { webUrl } from "../github/urls.js";
import { commitStep, noreplyIdentity, refusedNotes } from "../workspace/commit.js";
import { DoneTracker } from "../plan/done-tracker.js";

/** Above this the reviewer gets the start of the diff and is told to read the rest itself. */
export const MAX_REVIEW_DIFF_CHARS = 60_000;

export interface StepCommitsOptions {
  job: JobRecord;
  /** Where the ticks and commits go: the job's progress comment. */
  report: { set(patch: Partial<ProgressState>): void };
  /** Secrets of the job (its git token) that a commit message or note must never carry. */
  secrets: readonly string[];
  checkout: string;
  author: GitIdentity;
  /** `implement.allowWorkflowEdits`. */
  allowWorkflowEdits: boolean;
  /** The job's notes, shared with whoever else has something to tell. */
  notes: string[];
  /** Where the requester's noreply address lives (`users.noreply.<GHE_HOST>` on Enterprise Server). */
  noreplyDomain?: string;
}

/**
 * The plan as the planner wrote it, the worker's ticks, and the commit each finished step
 * became; also what a chain's later worker (after a reviewer, or on PR feedback) committed.
 */
export class StepCommits {
  private plan: ParsedPlan = { steps: [], filesToModify: [] };
  private tracker = new DoneTracker(0);
  private pending: number[] = [];
  private readonly commits: Record<number, { sha: string; url: string }> = {};
  /** Every commit made, oldest first. */
  readonly shas: string[] = [];
  /** A reviewer step has started: the worker after it addresses its findings. */
  reviewed = false;
  /** The role of the step running now (none in a parallel step): the worker's text carries its [DONE:n] markers. */
  private stepRole: string | undefined;

  constructor(private readonly options: StepCommitsOptions) {}

  usePlan(plan: ParsedPlan): void {
    this.plan = plan;
    this.tracker = new DoneTracker(plan.steps.length);
    this.options.report.set(this.patch());
  }

  observe(event: AgentEvent): void {
    if (event.type === "step_start") this.stepRole = event.role;
    if (event.type === "step_end" && event.role === "planner" && event.output) this.usePlan(planOf({ text: event.output, submission: event.submission }));
    if (event.type === "step_start" && event.role === "reviewer") this.reviewed = true;
    if (event.type === "text" && this.stepRole === "worker") this.pending.push(...this.tracker.push(event.text));
  }

  /** The worker's current step has a numbered plan to tick (not the worker after a reviewer). */
  get numberedPlan(): boolean {
    return this.plan.steps.length > 0 && !this.reviewed;
  }

  /**
   * The worker's `complete_step`: the step is ticked and its changes committed now, before the
   * tool's answer goes back to the model, so the next step's changes land in the next commit.
   */
  async completeStep(n: number, note?: string): Promise<string> {
    const count = this.plan.steps.length;
    if (n > count) throw new ToolError(`There is no step ${n}: the plan has ${count === 1 ? "1 step" : `${count} steps (1–${count})`}.`);
    if (!this.tracker.mark(n)) return `Step ${n} was already reported finished; nothing to do. Go on with the next step.`;
    await this.commitFinished(); // markers written in text before this call are committed first
    if (note) this.options.notes.push(`Step ${n}: ${oneLine(redact(note, this.options.secrets), 300)}`);
    const sha = await this.commit(this.plan.steps[n - 1]!.text, [n]);
    this.options.report.set(this.patch());
    const left = this.plan.steps.filter((s) => !this.tracker.done.includes(s.n)).map((s) => s.n);
    const next = left.length > 0 ? `Steps left: ${left.join(", ")}.` : "All steps are done: verify the whole change, then end with your report.";
    return sha ? `Step ${n} ticked and committed (${sha.slice(0, 7)}). ${next}` : `Step ${n} ticked; it changed no files, so there is no commit for it. ${next}`;
  }

  /**
   * Between the worker's turns: steps newly reported with `[DONE:n]` become a commit (when
   * files changed). Several reported in one reply (a final summary listing them all) share one
   * commit: what each changed can no longer be told apart, and the notes say so.
   */
  async commitFinished(): Promise<void> {
    const steps = this.pending.splice(0);
    if (steps.length === 0) return;
    const texts = steps.map((n) => this.plan.steps[n - 1]!.text);
    const message = steps.length === 1 ? texts[0]! : `Steps ${steps.join(", ")}: ${texts.join("; ")}`;
    const sha = await this.commit(message, steps);
    if (sha && steps.length > 1) {
      this.options.notes.push(
        `Steps ${steps.join(", ")} were reported finished together (\`[DONE:n]\` in one reply, not with complete_step), so the step commits could not be separated: their changes are in one commit`,
      );
    }
    this.options.report.set(this.patch());
  }

  /** What the worker changed without reporting a step is committed too, rather than lost. */
  async commitRest(message: string): Promise<void> {
    await this.commitFinished();
    await this.commit(message, []);
  }

  /**
   * Before a reviewer: the worker's changes so far committed, and the diff from `base` as the
   * reviewer's context (the agents cannot run git on `.git` themselves outside bash).
   */
  async reviewContext(base: string, rest: string): Promise<ContextSection[]> {
    await this.commitRest(rest);
    const diff = await git(["diff", "--no-color", "--no-ext-diff", base, "HEAD", "--"], { cwd: this.options.checkout, workspace: true });
    const text =
      diff.length > MAX_REVIEW_DIFF_CHARS
        ? `${diff.slice(0, MAX_REVIEW_DIFF_CHARS)}\n… (the diff is ${diff.length} characters; read the changed files for the rest)`
        : diff;
    return [{ source: "the changes made so far (git diff)", text: text || "(no changes)" }];
  }

  /** One commit of everything changed so far, linked from `steps`; its sha, or undefined when nothing changed. */
  private async commit(text: string, steps: number[]): Promise<string | undefined> {
    const { job, checkout, author, allowWorkflowEdits } = this.options;
    const made = await commitStep({
      checkout,
      // The message is model text pushed for everyone to read: redacted like a comment.
      step: redact(text, this.options.secrets),
      author,
      // A person asked for the work; an automatic fix (a failed suite) or a bot's request has no one to credit.
      coAuthor: job.kind === "ci-fix" || /\[bot\]$/i.test(job.trigger.sender) ? undefined : noreplyIdentity(job.trigger.sender, job.trigger.senderId, this.options.noreplyDomain),
      allowWorkflowEdits,
    });
    this.options.notes.push(...refusedNotes(made.refused).filter((note) => !this.options.notes.includes(note)));
    if (!made.sha) return undefined;
    this.shas.push(made.sha);
    for (const step of steps) this.commits[step] = { sha: made.sha, url: `${webUrl(job.repo.cloneUrl)}/commit/${made.sha}` };
    return made.sha;
  }

  /**
   * The commits GitHub remade of the local ones (`implement.commits: api`): the ticked steps link
   * to GitHub's commits, which are the ones on the branch.
   */
  useRemoteShas(remade: Readonly<Record<string, string>>): void {
    const url = (sha: string) => `${webUrl(this.options.job.repo.cloneUrl)}/commit/${sha}`;
    for (const [step, local] of Object.entries(this.commits)) {
      const remote = remade[local.sha];
      if (remote) this.commits[Number(step)] = { sha: remote, url: url(remote) };
    }
  }

  /** GitHub refused the branch: its commits exist only in the job's artifacts, so the steps link to none. */
  unpublished(): void {
    for (const step of Object.keys(this.commits)) delete this.commits[Number(step)];
  }

  patch() {
    const { goal, steps, risks } = this.plan;
    return { plan: { goal, steps, risks, done: this.tracker.done, commits: { ...this.commits } }, notes: [...this.options.notes] };
  }

  planForBody() {
    return { goal: this.plan.goal, steps: this.plan.steps, done: this.tracker.done };
  }
}
