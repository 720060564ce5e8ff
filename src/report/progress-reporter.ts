/**
 * One job's presence on its issue or PR: the 👀 reaction, the progress comment edited in place
 * (coalesced), the terminal edit, and one-off replies — every write through the GitHubWriter.
 * Reporting never crashes a job: failures are logged and the job goes on.
 *
 * Cadence (DESIGN.md §2): an edit only when something other than the clock changed (the elapsed
 * time shown is brought up to date by edits made for another reason), at least `editIntervalMs`
 * after the previous one; the terminal edit is sent at once.
 */
import { type Clock, type GitHubWriter, httpStatus, type ReportLog, silentLog, type WriteOptions, WriteSuperseded } from "./github-writer.js";
import { renderProgress } from "./render.js";
import { jobMarker, type ProgressState } from "./types.js";

export interface ReportTarget {
  owner: string;
  repo: string;
  /** Issue or pull-request number. */
  number: number;
}

export interface TriggerComment {
  commentId: number;
  kind: "issue_comment" | "review_comment";
}

export interface ProgressReporterOptions {
  writer: GitHubWriter;
  target: ReportTarget;
  jobId: string;
  /** The job's progress comment from an earlier attempt (restart, queued job): edited, not reposted. */
  commentId?: number;
  /** Default: the writer's, so its edit interval and retries run on the time its writes are spaced by. */
  clock?: Clock;
  /** Default 10 000 (`CREWBOT_EDIT_INTERVAL_S`): the least time between two progress edits (DESIGN.md §2). */
  editIntervalMs?: number;
  /** Attempts at the terminal edit. Default 3. */
  finalAttempts?: number;
  /** Wait between attempts at the terminal edit. Default 5000. */
  finalRetryDelayMs?: number;
  render?: (state: ProgressState) => string;
  log?: ReportLog;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export const DEFAULT_EDIT_INTERVAL_MS = 10_000;

/** A state waiting to be shown, with when it arrived (its elapsed time goes on from there). */
interface Pending {
  state: ProgressState;
  /** Its body without the clock: equal keys mean only the elapsed time differs. */
  key: string;
  at: number;
}

/** A reply comment through the writer; logs and returns undefined when it fails. */
export async function postReply(
  writer: GitHubWriter,
  target: ReportTarget,
  body: string,
  log: ReportLog = silentLog,
  options: WriteOptions = {},
): Promise<number | undefined> {
  try {
    const res = await writer.write<{ id: number }>("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
      owner: target.owner,
      repo: target.repo,
      issue_number: target.number,
      body,
    }, options);
    return res.data.id;
  } catch (err) {
    log.warn(`could not reply on ${target.owner}/${target.repo}#${target.number}: ${message(err)}`);
    return undefined;
  }
}

export class ProgressReporter {
  private id: number | undefined;
  private readonly writer: GitHubWriter;
  private readonly target: ReportTarget;
  private readonly clock: Clock;
  private readonly render: (state: ProgressState) => string;
  private readonly log: ReportLog;
  private readonly interval: number;
  private starting: Promise<number | undefined> | undefined;
  private finishing: Promise<boolean> | undefined;
  /** The newest state not yet shown; intermediate ones are dropped. */
  private pending: Pending | undefined;
  private flushing = false;
  private flushDone: Promise<void> = Promise.resolve();
  private lastBody: string | undefined;
  /** The clock-free key of the body last shown. */
  private lastKey: string | undefined;
  private lastEditAt = Number.NEGATIVE_INFINITY;
  /** Progress edits sent (the post and the terminal edit not counted), for benches. */
  edits = 0;

  constructor(private readonly options: ProgressReporterOptions) {
    this.writer = options.writer;
    this.target = options.target;
    this.id = options.commentId;
    this.clock = options.clock ?? options.writer.clock;
    this.render = options.render ?? renderProgress;
    this.log = options.log ?? silentLog;
    this.interval = options.editIntervalMs ?? DEFAULT_EDIT_INTERVAL_MS;
  }

  /** The progress comment's id, once posted (store it with the job: a restart edits it). */
  get commentId(): number | undefined {
    return this.id;
  }

  /** 👀 on the triggering comment; an issue comment and a review comment have different routes. */
  async acknowledge(trigger: TriggerComment): Promise<void> {
    const route =
      trigger.kind === "review_comment"
        ? "POST /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions"
        : "POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions";
    try {
      await this.writer.write(route, { owner: this.target.owner, repo: this.target.repo, comment_id: trigger.commentId, content: "eyes" });
    } catch (err) {
      this.log.warn(`job ${this.options.jobId}: could not add the 👀 reaction: ${message(err)}`);
    }
  }

  /**
   * Posts the progress comment, or edits the one given here or to the constructor (reposting when
   * it was deleted). Resolves to its id, or undefined when GitHub refused (logged; the job goes on).
   */
  start(state: ProgressState, existingCommentId?: number): Promise<number | undefined> {
    if (existingCommentId !== undefined && !this.starting) this.id = existingCommentId;
    this.starting ??= this.doStart(state);
    return this.starting;
  }

  /**
   * Coalesced: at most one edit per interval, with the newest state (its elapsed time as of the
   * edit); nothing when only the clock moved since the body last shown.
   */
  update(state: ProgressState): void {
    if (this.finishing) return;
    const key = this.clockFree(state);
    if (key === undefined) return;
    if (key === (this.pending?.key ?? this.lastKey)) {
      // Only the clock moved: keep what waits (its own clock goes on), start nothing.
      return;
    }
    this.pending = { state, key, at: this.clock.now() };
    if (!this.flushing) {
      this.flushing = true;
      this.flushDone = this.flush().catch((err: unknown) => {
        this.flushing = false;
        this.pending = undefined;
        this.log.warn(`job ${this.options.jobId}: progress updates stopped: ${message(err)}`);
      });
    }
  }

  /**
   * The terminal edit, sent at once: a pending coalesced edit is dropped, one already handed to
   * the writer goes first (the writer keeps order). Retried, then logged; resolves to success.
   * Only the first call counts.
   */
  finish(state: ProgressState): Promise<boolean> {
    this.pending = undefined;
    this.finishing ??= this.doFinish(state).catch((err: unknown) => {
      this.log.error(`job ${this.options.jobId}: the final progress edit failed: ${message(err)}`);
      return false;
    });
    return this.finishing;
  }

  /** A one-off reply (help, not allowed) on any issue or PR of the same repository. */
  reply(number: number, body: string): Promise<number | undefined> {
    return postReply(this.writer, { ...this.target, number }, body, this.log);
  }

  /** Settles when no coalesced edit is waiting or in flight (and the terminal edit, if any, is done). */
  async idle(): Promise<void> {
    while (this.flushing) await this.flushDone;
    await this.finishing;
  }

  private safeRender(state: ProgressState): string | undefined {
    try {
      return this.render(state);
    } catch (err) {
      this.log.warn(`job ${this.options.jobId}: could not render progress: ${message(err)}`);
      return undefined;
    }
  }

  private async doStart(state: ProgressState): Promise<number | undefined> {
    const body = this.safeRender(state) ?? `⏳ Starting\n${jobMarker(this.options.jobId)}`;
    const key = this.clockFree(state);
    try {
      if (this.id !== undefined) {
        try {
          await this.edit(this.id, body, key);
          return this.id;
        } catch (err) {
          if (httpStatus(err) !== 404) throw err;
          this.id = undefined; // deleted meanwhile: post a new one
        }
      }
      this.id = await this.post(body, key);
    } catch (err) {
      this.log.warn(`job ${this.options.jobId}: could not post the progress comment: ${message(err)}`);
    }
    return this.id;
  }

  private async flush(): Promise<void> {
    for (;;) {
      // Checked and cleared in one synchronous step, so an update() never finds a stale flag.
      if (this.pending === undefined || this.finishing) {
        this.flushing = false;
        return;
      }
      const wait = this.lastEditAt + this.interval - this.clock.now();
      if (wait > 0) {
        await this.clock.sleep(wait);
        continue;
      }
      if (this.id === undefined) {
        if (this.starting) {
          await this.starting;
          if (this.id !== undefined) continue;
        }
        this.pending = undefined; // nowhere to show it; the terminal edit will post one
        continue;
      }
      if (this.pending.key === this.lastKey) {
        this.pending = undefined; // back to what is shown: the clock alone is no reason to edit
        continue;
      }
      try {
        await this.editProgress(this.id);
      } catch (err) {
        this.lastEditAt = this.clock.now(); // no hammering while GitHub is unhappy
        if (!(err instanceof WriteSuperseded)) this.log.warn(`job ${this.options.jobId}: progress edit failed: ${message(err)}`);
      }
    }
  }

  /**
   * One progress edit, queued behind the installation's other writes: its body is rendered when
   * the writer sends it, from the newest state then, with the elapsed time as of that moment.
   */
  private async editProgress(commentId: number): Promise<void> {
    let sent: { body: string; key: string } | undefined;
    const queued = this.pending!;
    const take = (): string => {
      if (sent) return sent.body;
      // The newest state; the one queued when the terminal edit dropped what waited.
      const pending = this.pending ?? queued;
      this.pending = undefined;
      const body = this.safeRender(this.elapsedNow(pending)) ?? this.lastBody ?? "";
      sent = { body, key: pending.key };
      return body;
    };
    const params = { owner: this.target.owner, repo: this.target.repo, comment_id: commentId, body: take };
    await this.writer.write("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", params, { progress: true });
    this.lastBody = sent?.body;
    this.lastKey = sent?.key;
    this.lastEditAt = this.clock.now();
    this.edits += 1;
  }

  /** The waiting state with its elapsed time moved on to now (a terminal state keeps its own). */
  private elapsedNow(pending: Pending): ProgressState {
    if (pending.state.terminal) return pending.state;
    return { ...pending.state, elapsedMs: pending.state.elapsedMs + Math.max(0, this.clock.now() - pending.at) };
  }

  /** The body with the clock taken out, to tell a real change from time passing; undefined when it cannot render. */
  private clockFree(state: ProgressState): string | undefined {
    return this.safeRender({ ...state, elapsedMs: 0 });
  }

  private async doFinish(state: ProgressState): Promise<boolean> {
    const body = this.safeRender(state) ?? `❌ Failed: could not render the result\n${jobMarker(this.options.jobId)}`;
    if (this.starting) await this.starting;
    const attempts = this.options.finalAttempts ?? 3;
    for (let attempt = 1; ; attempt += 1) {
      try {
        if (this.id !== undefined && body === this.lastBody) return true;
        if (this.id === undefined) this.id = await this.post(body);
        else await this.edit(this.id, body);
        return true;
      } catch (err) {
        const status = httpStatus(err);
        // Deleted: the result must still be seen. Other 4xx would fail the same way again.
        if (status === 404 && this.id !== undefined) {
          this.id = undefined;
          if (attempt < attempts) continue;
        }
        const permanent = status !== undefined && status >= 400 && status < 500 && status !== 404;
        if (permanent || attempt >= attempts) {
          this.log.error(`job ${this.options.jobId}: the final progress edit failed after ${attempt} attempt(s): ${message(err)}`);
          return false;
        }
        await this.clock.sleep(this.options.finalRetryDelayMs ?? 5000);
      }
    }
  }

  private async post(body: string, key?: string): Promise<number> {
    const res = await this.writer.write<{ id: number }>("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
      owner: this.target.owner,
      repo: this.target.repo,
      issue_number: this.target.number,
      body,
    });
    this.lastBody = body;
    this.lastKey = key;
    this.lastEditAt = this.clock.now();
    return res.data.id;
  }

  private async edit(commentId: number, body: string, key?: string): Promise<void> {
    await this.writer.write("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", {
      owner: this.target.owner,
      repo: this.target.repo,
      comment_id: commentId,
      body,
    });
    this.lastBody = body;
    this.lastKey = key;
    this.lastEditAt = this.clock.now();
  }
}
