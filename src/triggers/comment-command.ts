import { canWrite } from "../github/permission.js";
import { capMiddle } from "../text/cap-middle.js";
import { jobCommand } from "../queue/job-kinds.js";
import type { NewJob, ReviewCommentPlace } from "../queue/types.js";
import { parseCommand, type Command } from "./parse-command.js";
import { MAX_STORED_BODY_CHARS, REVIEW_GROUP } from "./pull-request-event.js";

/** A request longer than this is answered, not run: no one writes a 20 KB command on purpose. */
export const MAX_REQUEST_CHARS = 20_000;

/** A stored diff hunk keeps at most this much of its end (where the commented line is). */
export const MAX_STORED_HUNK_CHARS = 20_000;

/** What a `pull_request_review_comment` adds to a comment: its place in the diff and its thread. */
export interface ReviewCommentFields {
  path?: string;
  line?: number | null;
  original_line?: number | null;
  start_line?: number | null;
  side?: string | null;
  diff_hunk?: string;
  in_reply_to_id?: number;
}

/** The parts of an `issue_comment` (or review comment) payload the trigger reads. */
export interface CommentPayload {
  comment: { id: number; body: string; created_at: string; user: { login: string; type: string; id?: number } | null } & ReviewCommentFields;
  issue?: { number: number; title: string; body?: string | null; locked?: boolean; pull_request?: unknown; user: { login: string } | null; created_at?: string };
  pull_request?: { number: number; title: string; body?: string | null; locked?: boolean; user: { login: string } | null; created_at?: string };
  repository: { name: string; owner: { login: string }; clone_url: string; default_branch: string; private: boolean; size?: number };
  installation?: { id: number };
  sender: { login: string; type: string };
}

export type Preflight =
  | { go: false; reason: string }
  | { go: true; command: Command; login: string };

/**
 * A bot account: GitHub says `type: "Bot"`, and an app's bot user is `<slug>[bot]` — a name no
 * person can register (`[` is not allowed in logins), so the suffix alone is enough.
 */
export const isBot = (user: { login: string; type: string }) => user.type === "Bot" || /\[bot\]$/i.test(user.login);

/** Before any request to GitHub: is this comment for us at all? `appSlug`, when known, makes a mention of the app a command. */
export function preflight(payload: CommentPayload, appSlug?: string): Preflight {
  const author = payload.comment.user;
  // Never our own comments, never another bot's: no loops, no bot-to-bot chains.
  if (!author || isBot(author) || isBot(payload.sender)) return { go: false, reason: "comment by a bot" };
  const command = parseCommand(payload.comment.body, appSlug);
  if (!command) return { go: false, reason: "no command" };
  if (!payload.installation) return { go: false, reason: "no installation in the payload" };
  const subject = payload.issue ?? payload.pull_request;
  if (subject?.locked) return { go: false, reason: "the conversation is locked" };
  return { go: true, command, login: author.login };
}

export type Decision =
  | { action: "help"; unknown?: string }
  | { action: "not-allowed"; login: string }
  | { action: "reply"; body: string; reason: string }
  | { action: "cancel"; by: string }
  /** `/crewbot insights`, by a writer: the repository's figures in one reply. */
  | { action: "insights" }
  /** `/crewbot pause` (`pause: true`) or `/crewbot resume` on a pull request, by a writer. */
  | { action: "pause"; by: string; pause: boolean }
  /** An answer to a waiting question: a `/answer` text, or a ticked option of the question comment `jobId`. */
  | { action: "answer"; by: string; text?: string; jobId?: string; option?: number }
  | { action: "enqueue"; job: NewJob }
  /** A ticked approval box: enqueue the implement job, and say so in the plan's comment. */
  | { action: "approve"; job: NewJob; planCommentId: number; planBody: string; by: string };

/** After the permission check: what to do. Pure. */
export function decide(
  payload: CommentPayload,
  pre: Extract<Preflight, { go: true }>,
  permission: string | undefined,
  deliveryId: string,
  commentKind: "issue_comment" | "review_comment" = "issue_comment",
): Decision {
  const { command, login } = pre;
  if (command.kind === "help") return { action: "help", unknown: command.unknown };
  if (!permission || !canWrite(permission)) return { action: "not-allowed", login };
  if (command.kind === "cancel") return { action: "cancel", by: login };
  if (command.kind === "insights") return { action: "insights" };
  if (command.kind === "pause" || command.kind === "resume") return pauseDecision(payload, login, command.kind);
  if (command.kind === "learn" || command.kind === "learnings") return learnJob(payload, login, deliveryId, command.kind, commentKind);
  if (command.kind === "answer") {
    if (!command.text) return { action: "reply", body: "`/answer` needs the answer after it: `/answer <your answer>`.", reason: "empty answer" };
    if (command.text.length > MAX_REQUEST_CHARS) return { action: "reply", body: `This answer is too long; crewbot takes at most ${MAX_REQUEST_CHARS.toLocaleString("en")} characters.`, reason: "answer too long" };
    return { action: "answer", by: login, text: command.text };
  }

  const issue = payload.issue;
  const pr = payload.pull_request;
  const isPullRequest = Boolean(pr ?? issue?.pull_request);
  if (!jobCommand(command.kind).onIssues && !isPullRequest) {
    return { action: "reply", body: `\`/${command.kind}\` works on pull requests; on an issue, try \`/plan\`.`, reason: `${command.kind} on an issue` };
  }
  if (command.kind === "ask" && command.request === "") {
    return { action: "reply", body: "`/ask` needs a question after it: `/ask <your question>`.", reason: "empty question" };
  }
  if (command.request.length > MAX_REQUEST_CHARS) {
    return {
      action: "reply",
      body: `This request is ${command.request.length.toLocaleString("en")} characters long; crewbot takes at most ${MAX_REQUEST_CHARS.toLocaleString("en")}. Put the details in the issue and keep the command short.`,
      reason: "request too long",
    };
  }
  return {
    action: "enqueue",
    job: {
      ...jobGround(payload, isPullRequest),
      deliveryId,
      kind: command.kind,
      // A review replaces a queued one on the same PR: two reviews of one head are noise.
      ...(command.kind === "review" ? { group: REVIEW_GROUP, supersede: true } : {}),
      trigger: {
        sender: login,
        senderId: payload.comment.user?.id,
        request: command.request,
        commentId: payload.comment.id,
        commentKind,
        commentCreatedAt: payload.comment.created_at,
        ...(commentKind === "review_comment" ? { reviewComment: reviewCommentPlace(payload.comment) } : {}),
      },
    },
  };
}

/** `/crewbot pause` and `/crewbot resume`: only a pull request has automatic work to pause. Pure. */
function pauseDecision(payload: CommentPayload, login: string, word: "pause" | "resume"): Decision {
  if (!(payload.pull_request ?? payload.issue?.pull_request)) {
    return { action: "reply", body: `\`/crewbot ${word}\` applies to pull requests: it pauses or resumes their automatic reviews, summaries and CI fixes.`, reason: `${word} on an issue` };
  }
  return { action: "pause", by: login, pause: word === "pause" };
}

/** `/crewbot learn` and `/crewbot learnings`: a learn job on the issue or pull request where it was written. Pure. */
function learnJob(payload: CommentPayload, login: string, deliveryId: string, word: "learn" | "learnings", commentKind: "issue_comment" | "review_comment"): Decision {
  const isPullRequest = Boolean(payload.pull_request ?? payload.issue?.pull_request);
  const action = word === "learn" ? "propose" : "list";
  return {
    action: "enqueue",
    job: {
      ...jobGround(payload, isPullRequest),
      deliveryId,
      kind: "learn",
      learn: { action, automatic: false, reason: `/crewbot ${word} by @${login}` },
      trigger: { sender: login, senderId: payload.comment.user?.id, request: "", commentId: payload.comment.id, commentKind, commentCreatedAt: payload.comment.created_at },
    },
  };
}

/** A review comment's place as the worker is told it; an outdated comment keeps its original line. Pure. */
export function reviewCommentPlace(c: ReviewCommentFields): ReviewCommentPlace {
  const hunk = c.diff_hunk ?? "";
  const place: ReviewCommentPlace = {
    path: c.path ?? "",
    diffHunk: hunk.length > MAX_STORED_HUNK_CHARS ? hunk.slice(-MAX_STORED_HUNK_CHARS) : hunk,
  };
  const line = c.line ?? c.original_line;
  if (typeof line === "number") place.line = line;
  if (typeof c.start_line === "number" && c.start_line !== line) place.startLine = c.start_line;
  if (c.side === "LEFT" || c.side === "RIGHT") place.side = c.side;
  if (typeof c.in_reply_to_id === "number") place.inReplyToId = c.in_reply_to_id;
  return place;
}

/** Where any job of this payload works: its target, its repository, and the issue or PR as it is now. */
export function jobGround(payload: Pick<CommentPayload, "issue" | "pull_request" | "repository" | "installation">, isPullRequest: boolean): Pick<NewJob, "target" | "repo" | "subject"> {
  const subject = (payload.issue ?? payload.pull_request)!;
  const { repository } = payload;
  return {
    target: {
      installationId: payload.installation!.id,
      owner: repository.owner.login,
      repo: repository.name,
      number: subject.number,
      isPullRequest,
    },
    repo: { cloneUrl: repository.clone_url, defaultBranch: repository.default_branch, private: repository.private, size: repository.size },
    subject: {
      title: subject.title.slice(0, 1000),
      body: capMiddle(subject.body ?? "", MAX_STORED_BODY_CHARS, "of the description"),
      author: subject.user?.login ?? "ghost",
      ...(subject.created_at ? { createdAt: subject.created_at } : {}),
    },
  };
}
