/** Durable jobs: what a webhook asks for, kept until it has ended and its comment says so. */

export type JobKind = "plan" | "implement" | "review";

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
}

export interface RepoInfo {
  cloneUrl: string;
  defaultBranch: string;
  private: boolean;
}

/** The issue or PR as it was when the command was written (later edits are not the request's). */
export interface JobSubject {
  title: string;
  body: string;
  author: string;
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
}

export interface JobRecord extends NewJob {
  id: string;
  state: JobState;
  /** How many times a worker claimed it (a job interrupted before it started is retried once). */
  attempts: number;
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  /** The progress comment, once posted: a restarted job edits it rather than posting another. */
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
}

export interface EnqueueResult {
  job: JobRecord;
  /** The delivery was seen before; `job` is the one it made then. */
  duplicate: boolean;
  /** The id of a job still queued or running on the same target, which this one waits behind. */
  waitingBehind?: string;
}

export const targetKey = (t: Pick<JobTarget, "owner" | "repo" | "number">): string =>
  `${t.owner.toLowerCase()}/${t.repo.toLowerCase()}#${t.number}`;
