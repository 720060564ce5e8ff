/** Durable jobs: what a webhook asks for, kept until it has ended and its comment says so. */
import type { JobKind } from "./job-kinds.js";
import type { JobWait } from "./wait.js";

export type { CommandKind, JobKind } from "./job-kinds.js";

/** queued → running → one of the ended states. */
export type JobState = "queued" | "running" | "succeeded" | "failed" | "cancelled";

/** The issue or pull request a job works on; at most one running job per target. */
export interface JobTarget {
  installationId: number;
  owner: string;
  repo: string;
  /** Issue or pull-request number. */
  number: number;
  isPullRequest: boolean;
}

/** Who asked, where, and what. */
export interface JobTrigger {
  sender: string;
  /** The sender's user id, for their exact noreply address (`<id>+<login>@users.noreply.github.com`). */
  senderId?: number;
  /** The user's request (the command's text); may be empty. */
  request: string;
  /** The triggering comment, for the 👀 reaction and for "comments before the command". */
  commentId?: number;
  commentKind?: "issue_comment" | "review_comment";
  /** ISO time the comment was created; later comments are left out of the agents' context. */
  commentCreatedAt?: string;
  /** A review comment's place in the diff and its thread, as it was when the command was written. */
  reviewComment?: ReviewCommentPlace;
  /** The label whose adding started the job (`crewbot:plan`): removed when the job starts, so adding it again runs again. */
  label?: string;
}

/** Where a review comment sits: the feedback's place for the worker, and the thread crewbot answers in. */
export interface ReviewCommentPlace {
  path: string;
  /** Its (last) line; undefined on an outdated comment whose line is gone from the diff. */
  line?: number;
  /** The first line of a multi-line comment. */
  startLine?: number;
  side?: "LEFT" | "RIGHT";
  /** GitHub's `diff_hunk`: the diff up to the commented line (its end kept when long). */
  diffHunk: string;
  /** The thread's top-level comment, when this comment is a reply in it. */
  inReplyToId?: number;
}

export interface RepoInfo {
  cloneUrl: string;
  defaultBranch: string;
  private: boolean;
  /** `repository.size` in KB, as the webhook gave it: a large repository gets a partial mirror. */
  size?: number;
}

/** The issue or PR as it was when the command was written (later edits are not the request's). */
export interface JobSubject {
  title: string;
  body: string;
  author: string;
  /** When the issue or pull request was opened (ISO, from the webhook): crewbot's time to its first review counts from here. */
  createdAt?: string;
}

/** What an automatic or `/review` review job reviews. */
export interface ReviewRequest {
  /** An automatic review (pull_request event) reports in a check run only; `/review` also has a progress comment. */
  automatic: boolean;
  /** The pull_request action, or "command" for /review. */
  event: ReviewEvent;
  headSha: string;
  headRef: string;
  /** `owner/repo` of the head; differs from the base repository for forks. */
  headRepo: string;
  baseRef: string;
  baseSha: string;
  draft: boolean;
  labels: string[];
  /** The pull request author's account type: "User" | "Bot" | … */
  authorType: string;
  /**
   * The author's `author_association` with the repository (OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, …),
   * from the pull_request payload; absent for `/review` and for jobs queued before it was recorded.
   */
  authorAssociation?: string;
  /** When the push (or event) happened, epoch ms: the debounce counts from here. */
  eventAt: number;
}

/**
 * The pull_request actions that start an automatic review: the webhook's subscriptions (index.ts)
 * and the trigger's check (triggers/pull-request-event.ts) both read this list.
 */
export const AUTOMATIC_REVIEW_ACTIONS = ["opened", "reopened", "ready_for_review", "synchronize"] as const;
export type AutomaticReviewAction = (typeof AUTOMATIC_REVIEW_ACTIONS)[number];

/**
 * What a stored review job says started it: an automatic review's pull_request action, `command`
 * (a `/review`; the queue accepts it, though `/review` jobs carry no review request today),
 * `thread-reply` (a reply in a thread of crewbot's review comment, answered there by the reviewer),
 * or `resumed` (`/crewbot resume`: the head a pause left unreviewed, reviewed at once).
 */
export const REVIEW_EVENTS = [...AUTOMATIC_REVIEW_ACTIONS, "command", "thread-reply", "resumed"] as const;
export type ReviewEvent = (typeof REVIEW_EVENTS)[number];

/** What a ci-fix job fixes: the check suite that failed on the head of crewbot's pull request. */
export interface CiFixRequest {
  suiteId: number;
  headSha: string;
  headRef: string;
  /** `failure` or `timed_out`. */
  conclusion: string;
  /** The suite's app (its slug, e.g. github-actions), for the comment. */
  app: string;
}

/** Where the "Fix these findings" click came from. */
export interface FixFindingsRequest {
  checkRunId: number;
  /** The commit the clicked check run is on. */
  headSha: string;
}

/** What a learn job does: open or update the learnings pull request, or list the merged learnings. */
export interface LearnJobRequest {
  action: "propose" | "list";
  /** A candidate became due (no progress comment, only due candidates); else `/crewbot learn` (every candidate). */
  automatic: boolean;
  /** Why, for the log and the job's record. */
  reason: string;
}

export interface NewJob {
  /** `X-GitHub-Delivery`: a redelivered webhook makes no second job. */
  deliveryId: string;
  kind: JobKind;
  target: JobTarget;
  trigger: JobTrigger;
  repo: RepoInfo;
  subject?: JobSubject;
  /** An approved `/plan`: `/implement` runs exactly these steps, with no new scout or planner. */
  approvedPlan?: { planJobId: string; steps: Array<{ n: number; text: string }> };
  /** What a review job reviews (automatic or `/review`). */
  review?: ReviewRequest;
  /** What a ci-fix job fixes. */
  ciFix?: CiFixRequest;
  /** What a learn job does (`/crewbot learn`, `/crewbot learnings`, a due candidate). */
  learn?: LearnJobRequest;
  /** "Fix these findings" clicked on a `crewbot/review` check run: an implement job on the PR's branch with the open findings as its task. */
  fixFindings?: FixFindingsRequest;
  /**
   * Not claimable before this time (epoch ms); default: at once. A job waiting for its time does not
   * hold up the other jobs of its target. A stored JobRecord always has it (its createdAt when not given;
   * a deferral sets it anew).
   */
  runAt?: number;
  /** Jobs of one target and group replace each other when enqueued with `supersede` (e.g. "review"). */
  group?: string;
  /**
   * Needs `group`: in the same transaction as the insert, the target's queued jobs of that group are
   * cancelled (`⏹ Superseded by job <id>`) and its running ones flagged `supersededBy` (their runner aborts them).
   */
  supersede?: boolean;
  /** Set while (and after) the job paused on a question to its requester; see queue/wait.ts. */
  wait?: JobWait;
}

export interface JobRecord extends NewJob {
  id: string;
  state: JobState;
  /** How many times a worker claimed it (a job interrupted before it started is retried once). */
  attempts: number;
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  /**
   * The progress comment, once posted: a restarted job edits it rather than posting another.
   * `COMMENT_BEING_POSTED` while a queued job's comment is being posted (read it with `postedCommentId`).
   */
  progressCommentId?: number;
  /** Set when the job's agents started: from then on an interruption is final. */
  agentsStarted?: boolean;
  /** One line: how it ended (`✅ Done`, `❌ Failed: …`). */
  outcome?: string;
  /** `/crewbot cancel` flagged this running job; its runner aborts it. */
  cancelRequested?: boolean;
  /** Who cancelled it (login), when someone did. */
  cancelledBy?: string;
  /** The worker holding a running job, and until when its lease lasts (epoch ms). */
  workerId?: string;
  leaseExpiresAt?: number;
  /** A later job of the same target and group superseded this running job (its id); its runner aborts it. */
  supersededBy?: string;
}

export interface EnqueueResult {
  job: JobRecord;
  /** The delivery was seen before; `job` is the one it made then. */
  duplicate: boolean;
  /** The id of a job still queued or running on the same target, which this one waits behind. */
  waitingBehind?: string;
  /** Jobs this one superseded (`supersede`), as they now are: queued ones cancelled, running ones flagged. */
  superseded: JobRecord[];
}

/**
 * `progressCommentId` said before a queued job's "⏳ Queued behind …" comment is posted: a run that
 * starts before its id is stored (or after that process died) finds the comment by its marker.
 * GitHub's comment ids are positive, so 0 is never a comment's.
 */
export const COMMENT_BEING_POSTED = 0;

/** The job's progress comment, when one was posted and its id stored. */
export const postedCommentId = (job: Pick<JobRecord, "progressCommentId">): number | undefined =>
  job.progressCommentId !== undefined && job.progressCommentId !== COMMENT_BEING_POSTED ? job.progressCommentId : undefined;

export const targetKey = (t: Pick<JobTarget, "owner" | "repo" | "number">): string =>
  `${t.owner.toLowerCase()}/${t.repo.toLowerCase()}#${t.number}`;
