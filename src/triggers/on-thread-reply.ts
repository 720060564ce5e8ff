/**
 * A reply in the thread of one of crewbot's review comments that is not a command: the reviewer
 * answers it in that thread (DESIGN.md §1). Replies by bots (crewbot itself included), by people
 * without write access, or in threads another account started are left alone: no reply at all.
 */
import type { Context } from "probot";
import type { InstallationOctokit } from "../github/types.js";
import { canWrite } from "../github/permission.js";
import type { NewJob } from "../queue/types.js";
import { isBot, jobGround, MAX_REQUEST_CHARS, reviewCommentPlace, type CommentPayload } from "./comment-command.js";
import { repositoryOf, slugForMention, type TriggerDeps } from "./deps.js";
import { parseCommand } from "./parse-command.js";

export interface ThreadReplyPayload extends CommentPayload {
  pull_request: NonNullable<CommentPayload["pull_request"]> & {
    head: { sha: string; ref: string; repo: { full_name: string } | null };
    base: { sha: string; ref: string };
    draft?: boolean;
  };
}

/** Before any request: is this a person's non-command reply in some thread? A mention of the app (`appSlug`) is a command. Pure. */
export function threadReplyPreflight(payload: ThreadReplyPayload, appSlug?: string): { go: true; topId: number; login: string } | { go: false; reason: string } {
  const author = payload.comment.user;
  if (!author || isBot(author) || isBot(payload.sender)) return { go: false, reason: "reply by a bot" };
  if (typeof payload.comment.in_reply_to_id !== "number") return { go: false, reason: "not a reply in a thread" };
  if (parseCommand(payload.comment.body, appSlug)) return { go: false, reason: "a command (handled as one)" };
  if (!payload.installation || !payload.pull_request) return { go: false, reason: "no installation or pull request in the payload" };
  if (payload.pull_request.locked) return { go: false, reason: "the conversation is locked" };
  if (payload.comment.body.trim() === "") return { go: false, reason: "an empty reply" };
  if (payload.comment.body.length > MAX_REQUEST_CHARS) return { go: false, reason: "a reply too long to answer" };
  return { go: true, topId: payload.comment.in_reply_to_id, login: author.login };
}

/** The answer job: a review job of event `thread-reply`, the reply as its request. Pure. */
export function threadAnswerJob(payload: ThreadReplyPayload, deliveryId: string, now: number): NewJob {
  const pr = payload.pull_request;
  return {
    ...jobGround(payload, true),
    deliveryId,
    kind: "review",
    review: {
      automatic: false,
      event: "thread-reply",
      ...{ headSha: pr.head.sha, headRef: pr.head.ref, headRepo: pr.head.repo?.full_name ?? "", baseRef: pr.base.ref, baseSha: pr.base.sha },
      ...{ draft: pr.draft ?? false, labels: [], authorType: pr.user ? "User" : "", eventAt: now },
    },
    trigger: {
      sender: payload.comment.user!.login,
      senderId: payload.comment.user!.id,
      request: payload.comment.body,
      commentId: payload.comment.id,
      commentKind: "review_comment",
      commentCreatedAt: payload.comment.created_at,
      reviewComment: reviewCommentPlace(payload.comment),
    },
  };
}

async function topCommentAuthor(octokit: InstallationOctokit, owner: string, repo: string, id: number): Promise<string | undefined> {
  const { data } = (await octokit.request("GET /repos/{owner}/{repo}/pulls/comments/{comment_id}", { owner, repo, comment_id: id })) as { data: { user: { login: string } | null } };
  return data.user?.login;
}

/** `pull_request_review_comment.created`: a writer's reply in crewbot's thread queues an answer. */
export async function onThreadReply(context: Context<"pull_request_review_comment.created">, deps: TriggerDeps): Promise<void> {
  const payload = context.payload as unknown as ThreadReplyPayload;
  const pre = threadReplyPreflight(payload, await slugForMention(deps, payload.comment.body, context.id));
  if (!pre.go) return deps.log.debug({ deliveryId: context.id, reason: pre.reason }, "review comment: no thread answer");
  // Synchronous, before any await: the same delivery twice at once passes here once (one answer per reply).
  if (!(await deps.admission.newDelivery(context.id))) return deps.log.info({ deliveryId: context.id }, "redelivered thread reply dropped");
  const { owner: { login: owner }, name: repo } = payload.repository;
  const uncovered = await deps.coverage(payload.installation!.id, repositoryOf(payload));
  if (uncovered) return deps.log.info({ deliveryId: context.id, owner, repo, reason: uncovered }, "thread reply on a repository not covered: ignored");
  const octokit = context.octokit as unknown as InstallationOctokit;
  if ((await topCommentAuthor(octokit, owner, repo, pre.topId))?.toLowerCase() !== `${await deps.appSlug()}[bot]`.toLowerCase()) {
    return deps.log.debug({ deliveryId: context.id }, "reply in a thread crewbot did not start: left alone");
  }
  const permission = await deps.permissions.get(context.octokit, owner, repo, pre.login);
  if (!permission || !canWrite(permission)) return deps.log.info({ deliveryId: context.id, login: pre.login }, "thread reply by someone without write access: left alone");
  if ((await deps.admission.take(payload.installation!.id, pre.login)) !== "go") return deps.log.info({ deliveryId: context.id, login: pre.login }, "thread reply rate-limited: not answered");
  await deps.enqueue(threadAnswerJob(payload, context.id, Date.now()), octokit);
}
