/** A pull_request event → an automatic review job, decided without any request to GitHub. Pure. */
import type { CrewbotConfig } from "../config/schema.js";
import { capMiddle } from "../text/cap-middle.js";
import type { PullRequestEnd } from "../jobs/pull-request-end.js";
import { AUTOMATIC_REVIEW_ACTIONS, type AutomaticReviewAction, type NewJob } from "../queue/types.js";

/**
 * An issue or PR description is stored with its job up to this size (start and end kept): GitHub
 * caps bodies at 65,536 characters, so only a forged or future payload is ever cut, and the
 * queue never holds megabytes per job. The agents read less still (issue-context.ts).
 */
export const MAX_STORED_BODY_CHARS = 100_000;

/** The parts of a `pull_request` payload the trigger reads. */
export interface PullRequestPayload {
  action: string;
  number: number;
  pull_request: {
    number: number;
    title: string;
    body?: string | null;
    draft?: boolean;
    state: string;
    /** ISO times GitHub gives; `merged` and `closed_at` are read when it closes. */
    created_at?: string;
    closed_at?: string | null;
    merged?: boolean;
    user: { login: string; type: string } | null;
    /** How the author is associated with the repository: OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, NONE, … */
    author_association?: string;
    labels?: Array<{ name: string }>;
    head: { sha: string; ref: string; repo: { full_name: string } | null };
    base: { sha: string; ref: string };
  };
  repository: { name: string; owner: { login: string }; clone_url: string; default_branch: string; private: boolean; size?: number };
  installation?: { id: number };
  sender: { login: string; id?: number; type: string };
}

const isAutomaticReviewAction = (action: string): action is AutomaticReviewAction => (AUTOMATIC_REVIEW_ACTIONS as readonly string[]).includes(action);

/** The webhook events index.ts subscribes the automatic review to: one per action of AUTOMATIC_REVIEW_ACTIONS. */
export const AUTOMATIC_REVIEW_EVENTS = AUTOMATIC_REVIEW_ACTIONS.map((action) => `pull_request.${action}` as const);
export type AutomaticReviewEvent = (typeof AUTOMATIC_REVIEW_EVENTS)[number];

/** Jobs of this group replace each other on a PR: a newer push supersedes the review of an older one. */
export const REVIEW_GROUP = "review";

export type PullRequestDecision = { action: "enqueue"; job: NewJob } | { action: "ignore"; reason: string };

/**
 * Every opened, reopened, ready or pushed PR gets a review job, unless the repository's config
 * turns automatic reviews off (`reviewTurnedOff`); whether it runs (drafts, bots, labels, the
 * debounce) is decided in the job, which reads the config afresh and says why in a check run.
 */
export function decidePullRequestEvent(payload: PullRequestPayload, deliveryId: string, now = Date.now()): PullRequestDecision {
  if (!isAutomaticReviewAction(payload.action)) return { action: "ignore", reason: `action ${payload.action}` };
  if (!payload.installation) return { action: "ignore", reason: "no installation in the payload" };
  const pr = payload.pull_request;
  if (pr.state !== "open") return { action: "ignore", reason: `the pull request is ${pr.state}` };
  return { action: "enqueue", job: automaticReviewJob({ ...payload, installation: payload.installation }, payload.action, deliveryId, now) };
}

/** The automatic review job of a pull request's head, for `event`: a pull_request action, or a resume. Pure. */
export function automaticReviewJob(
  on: Pick<PullRequestPayload, "pull_request" | "repository" | "sender"> & { installation: { id: number } },
  event: AutomaticReviewAction | "resumed",
  deliveryId: string,
  now: number,
): NewJob {
  const { repository, pull_request: pr } = on;
  return {
    deliveryId,
    kind: "review",
    group: REVIEW_GROUP,
    supersede: true,
    target: { installationId: on.installation.id, owner: repository.owner.login, repo: repository.name, number: pr.number, isPullRequest: true },
    trigger: { sender: on.sender.login, ...(on.sender.id !== undefined ? { senderId: on.sender.id } : {}), request: "", commentCreatedAt: new Date(now).toISOString() },
    repo: { cloneUrl: repository.clone_url, defaultBranch: repository.default_branch, private: repository.private, size: repository.size },
    subject: { title: pr.title.slice(0, 1000), body: capMiddle(pr.body ?? "", MAX_STORED_BODY_CHARS, "of the description"), author: pr.user?.login ?? "ghost", ...(pr.created_at ? { createdAt: pr.created_at } : {}) },
    review: {
      automatic: true,
      event,
      headSha: pr.head.sha,
      headRef: pr.head.ref,
      headRepo: pr.head.repo?.full_name ?? "",
      baseRef: pr.base.ref,
      baseSha: pr.base.sha,
      draft: pr.draft ?? false,
      labels: (pr.labels ?? []).map((l) => l.name),
      authorType: pr.user?.type ?? "User",
      authorAssociation: pr.author_association ?? "NONE",
      eventAt: now,
    },
  };
}

/**
 * Why the repository's config leaves this event nothing to do, or undefined. Only `review.auto:
 * false` does: the job would end without a trace (no check run, no summary), so it is not queued,
 * and a command sent right after waits behind nothing. Every other skip rule ends in a skipped
 * check run that says why, so its job is still queued. The job checks again when it runs: the
 * config may change while it waits.
 */
export function reviewTurnedOff(config: Pick<CrewbotConfig, "review">): string | undefined {
  return config.review.auto ? undefined : "automatic reviews are off (review.auto: false)";
}

/** A `pull_request.closed` payload → the pull request that ended, for its findings' ends; or why not. Pure. */
export function decidePullRequestEnd(payload: PullRequestPayload, deliveryId: string, now = Date.now()): { action: "record"; end: PullRequestEnd } | { action: "ignore"; reason: string } {
  if (payload.action !== "closed") return { action: "ignore", reason: `action ${payload.action}` };
  if (!payload.installation) return { action: "ignore", reason: "no installation in the payload" };
  const closed = Date.parse(payload.pull_request.closed_at ?? "");
  const { repository, pull_request: pr } = payload;
  return {
    action: "record",
    end: { installationId: payload.installation.id, owner: repository.owner.login, repo: repository.name, number: pr.number, merged: pr.merged === true, headSha: pr.head.sha, closedAt: Number.isFinite(closed) ? closed : now, deliveryId },
  };
}
