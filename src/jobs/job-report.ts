import type { AgentEvent } from "../agent/events.js";
import type { InstallationOctokit } from "../github/types.js";
import type { GitHubWriter } from "../report/github-writer.js";
import type { TokenProvider } from "../workspace/push.js";
import type { EndState } from "../queue/job-queue.js";
import type { EndResult, JobContext } from "../queue/runner.js";
import { COMMENT_BEING_POSTED, postedCommentId, type JobRecord } from "../queue/types.js";
import { endJobComment, findJobComment, jobProgress, jobReporter, removeTriggerLabel } from "../report/job-comment.js";
import { progressFromEvents, type ProgressTracker } from "../report/progress-state.js";
import { statusLine } from "../report/render.js";
import type { ProgressState, Terminal } from "../report/types.js";
import type { CheckAction, CheckAnnotation, CheckConclusion, CheckOutput } from "../review/check-run.js";
import type { Ending } from "./outcome.js";
import type { JobServices } from "./services.js";

/**
 * What a job reads GitHub and pushes with. Kept apart from the report: nothing that renders or
 * posts needs a credential, and a step that only reports cannot reach one.
 */
export interface JobAccess {
  /** The installation's Octokit, for reads (every write goes through the report's writer). */
  octokit: InstallationOctokit;
  /** The installation token minted when the job began, for git (header only); redacted from everything posted. */
  token: string;
  /**
   * The installation token for git right now: `token` while it has 10 minutes or more left (by its
   * `expires_at`), else a new one; `{ renew: true }` mints a new one (GitHub refused the last).
   */
  gitToken: TokenProvider;
}

/** How a job ends, as its surface shows it (jobs/job-surfaces.ts). */
export interface ReportEnding extends Ending {
  /** The queue's outcome line when the surface has no comment to mirror (default: the terminal's headline). */
  outcome?: string;
  /** A check run's ending: its conclusion and output; `null` when the job ended before it made one (default: the terminal's). */
  check?: CheckEnding | null;
}

export interface CheckEnding {
  conclusion: CheckConclusion;
  output: CheckOutput;
  annotations?: readonly CheckAnnotation[];
  actions?: readonly CheckAction[];
}

/** A job's presence on GitHub (its surface) from its first step to its terminal state. */
export interface JobReport {
  /** The installation's writer, for the job's own writes (a pull request). */
  writer: GitHubWriter;
  event(event: AgentEvent): void;
  /** What events do not carry (plan, ticks, notes; links are added to those set before); the comment follows, coalesced. */
  set(patch: Partial<ProgressState>): void;
  /** The state so far (usage and cost counted from every event, whatever the surface). */
  readonly state: ProgressState;
  /** The last edit before the job waits for an answer (never held back); the job's next run edits the same comment. */
  pause(patch: Partial<ProgressState>): Promise<void>;
  /** The terminal state on the surface (never held back) and the result the queue records. */
  finish(ending: ReportEnding): Promise<EndResult>;
}

/**
 * The progress comment's surface: 👀 on the triggering comment and the progress comment (or the
 * edit of the one a queued or restarted job already has: a "⏳ Queued behind …" comment becomes
 * the job's), stored with the job.
 */
export async function openProgressComment(job: JobRecord, ctx: JobContext, services: JobServices, writer: GitHubWriter): Promise<JobReport> {
  const reporter = jobReporter(job, writer, services.observe.log, { editIntervalMs: services.operator.limits.editIntervalMs });
  const progress: ProgressTracker = progressFromEvents(jobProgress(job, services.operator.publicUrl));

  const existing = postedCommentId(job) ?? (await earlierComment(job, writer, services));
  if (existing === undefined && job.trigger.commentId !== undefined) {
    await reporter.acknowledge({ commentId: job.trigger.commentId, kind: job.trigger.commentKind ?? "issue_comment" });
  }
  const commentId = await reporter.start(progress.state, existing);
  await removeTriggerLabel(job, writer, services.observe.log);
  if (commentId !== undefined && commentId !== job.progressCommentId) await ctx.update({ progressCommentId: commentId });
  // Links add up (transcript, then branch, then PR): a patch never drops one set before.
  const withLinks = (patch: Partial<ProgressState> = {}): Partial<ProgressState> =>
    patch.links ? { ...patch, links: { ...progress.state.links, ...patch.links } } : patch;

  return {
    writer,
    event: (event) => {
      services.observe.transcripts.append(job.id, event);
      reporter.update(progress.apply(event));
    },
    set: (patch) => reporter.update(progress.set(withLinks(patch))),
    get state() {
      return progress.state;
    },
    async pause(patch) {
      await reporter.finish(progress.set(withLinks(patch)));
    },
    async finish({ terminal, patch }) {
      const state = progress.set({ ...withLinks(patch), terminal });
      // Another worker took the job over: its comment is theirs now.
      const lostLease = (ctx.signal.reason as { kind?: string } | undefined)?.kind === "lease-lost";
      if (!lostLease) await services.observe.transcripts.end(job.id, terminal, statusLine(state));
      if (!lostLease) await reporter.finish(state);
      return { state: endState(terminal), outcome: statusLine(state) };
    },
  };
}

/** A job that died with its process: its progress comment (found by its marker when its id was never stored) ends, not left spinning. */
export async function finaliseProgressComment(job: JobRecord, services: JobServices): Promise<void> {
  const writer = services.github.writerFor(job.target.installationId, await services.github.octokitFor(job.target.installationId));
  const progressCommentId = postedCommentId(job) ?? (await postedProgressComment(job, writer, services, "it stays as it was"));
  if (progressCommentId === undefined) return;
  const cancelled = job.outcome?.startsWith("⏹");
  const terminal = cancelled ? ({ kind: "cancelled" } as const) : ({ kind: "failed", reason: "interrupted" } as const);
  await endJobComment({ ...job, progressCommentId }, writer, services.operator.publicUrl, terminal, services.observe.log);
}

/**
 * A comment posted for the job whose id was never stored: by an attempt whose process died, or the
 * "⏳ Queued behind …" one being posted (or whose poster died) when the job started. Found by its
 * marker and edited, not posted twice. A first attempt that was never announced has none to look for.
 */
export async function earlierComment(job: JobRecord, writer: GitHubWriter, services: JobServices): Promise<number | undefined> {
  const mayHaveOne = job.attempts >= 2 || job.progressCommentId === COMMENT_BEING_POSTED;
  return mayHaveOne ? await postedProgressComment(job, writer, services, "a new one is posted") : undefined;
}

/** The job's progress comment found by its marker (its id was never stored); a failed search is a log line, and `otherwise` says what follows. */
export async function postedProgressComment(job: JobRecord, writer: GitHubWriter, services: Pick<JobServices, "github" | "observe">, otherwise: string): Promise<number | undefined> {
  try {
    return await findJobComment(job, writer, `${await services.github.appSlug()}[bot]`);
  } catch (err) {
    services.observe.log.warn(`job ${job.id}: could not look for its progress comment (${otherwise}): ${(err as Error).message}`);
    return undefined;
  }
}

/** The queue's end state of a terminal. */
export function endState(terminal: Terminal): EndState {
  if (terminal.kind === "done") return "succeeded";
  if (terminal.kind === "cancelled") return "cancelled";
  return "failed";
}
