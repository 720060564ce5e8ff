/**
 * What a pull request adds to its conversation: review comments (each on a file and line) and
 * review bodies, read like conversation comments — written before the command, not edited
 * since, no bots, cleaned and marked by author — and, for a command typed in a review thread,
 * that comment's place in the diff and the other comments of its thread.
 */
import type { ContextSection } from "../text/prompt.js";
import type { InstallationOctokit } from "../github/types.js";
import type { JobRecord, ReviewCommentPlace } from "../queue/types.js";
import { cleanText } from "../text/clean-text.js";

/** A thread's comments in the context: the newest of them, when a thread is very long. */
export const MAX_THREAD_COMMENTS = 30;
/** The diff hunk keeps its end (where the commented line is) up to this size. */
const MAX_HUNK_CHARS = 8_000;

export interface ReviewComment {
  id: number;
  body?: string | null;
  path: string;
  line?: number | null;
  original_line?: number | null;
  side?: string | null;
  diff_hunk?: string;
  in_reply_to_id?: number;
  created_at: string;
  updated_at: string;
  user: { login: string; type: string } | null;
}

export interface Review {
  id: number;
  body?: string | null;
  state: string;
  submitted_at?: string | null;
  user: { login: string; type: string } | null;
}

/** A section with the time it was written, for one timeline of comments, reviews and review comments. */
export interface Dated {
  at: number;
  author: string;
  source: string;
  text: string;
}

export interface PullItems {
  reviewComments: ReviewComment[];
  reviews: Review[];
}

export async function fetchPullItems(octokit: InstallationOctokit, job: JobRecord): Promise<PullItems> {
  const { owner, repo, number } = job.target;
  const params = { owner, repo, pull_number: number, per_page: 100 };
  const reviewComments = (await octokit.paginate("GET /repos/{owner}/{repo}/pulls/{pull_number}/comments", params)) as ReviewComment[];
  const reviews = (await octokit.paginate("GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews", params)) as Review[];
  return { reviewComments, reviews };
}

const isBot = (user: { login: string; type: string } | null) => user?.type === "Bot" || /\[bot\]$/i.test(user?.login ?? "");
const login = (user: { login: string } | null) => user?.login ?? "ghost";
const REVIEW_STATES: Record<string, string> = { APPROVED: "approved", CHANGES_REQUESTED: "requested changes", COMMENTED: "commented", DISMISSED: "dismissed" };

/** The thread's top-level comment: a reply names it in `in_reply_to_id`. */
export const threadTop = (comment: { id: number; in_reply_to_id?: number }) => comment.in_reply_to_id ?? comment.id;

const lineOf = (c: ReviewComment) => c.line ?? c.original_line;
const where = (c: ReviewComment) => (lineOf(c) ? `${c.path}:${lineOf(c)}` : c.path);

/**
 * Review bodies and review comments written before `before` (ms) and not edited since, without
 * bots and without the comments of `skipThread` (the trigger's thread, shown on its own).
 */
export function pullTimeline(items: PullItems, job: JobRecord, before: number, skipThread?: number): Dated[] {
  const dated: Dated[] = [];
  for (const r of items.reviews) {
    const at = r.submitted_at ? Date.parse(r.submitted_at) : Number.NaN;
    // PENDING reviews have no submitted_at: a draft nobody else can see yet.
    if (!(at < before) || isBot(r.user) || !cleanText(r.body ?? "").trim()) continue;
    const state = REVIEW_STATES[r.state] ?? r.state.toLowerCase();
    dated.push({ at, author: login(r.user), source: `review by @${login(r.user)} (${state}) on ${r.submitted_at}`, text: cleanText(r.body ?? "") });
  }
  for (const c of items.reviewComments) {
    const at = Date.parse(c.created_at);
    if (c.id === job.trigger.commentId || isBot(c.user) || !(at < before) || Date.parse(c.updated_at) > before) continue;
    if (skipThread !== undefined && threadTop(c) === skipThread) continue;
    const reply = c.in_reply_to_id === undefined ? "" : ` (a reply in the thread of review comment ${c.in_reply_to_id})`;
    dated.push({ at, author: login(c.user), source: `review comment ${c.id} by @${login(c.user)} on ${where(c)}${reply} on ${c.created_at}`, text: cleanText(c.body ?? "") });
  }
  return dated;
}

/** The trigger's place: from the job (as it was when written), else from GitHub's list. */
export function triggerPlace(job: JobRecord, items: PullItems): ReviewCommentPlace | undefined {
  if (job.trigger.reviewComment) return job.trigger.reviewComment;
  const c = items.reviewComments.find((x) => x.id === job.trigger.commentId);
  if (!c) return undefined;
  const line = lineOf(c);
  return {
    path: c.path,
    diffHunk: c.diff_hunk ?? "",
    ...(line ? { line } : {}),
    ...(c.side === "LEFT" || c.side === "RIGHT" ? { side: c.side } : {}),
    ...(c.in_reply_to_id !== undefined ? { inReplyToId: c.in_reply_to_id } : {}),
  };
}

/** The review comment the command was typed in: file, line, side and the diff hunk it sits on. */
export function placeSection(place: ReviewCommentPlace): ContextSection {
  const lines = place.line === undefined ? "no line (the comment is outdated)" : place.startLine ? `lines ${place.startLine}-${place.line}` : `line ${place.line}`;
  const side = place.side === "LEFT" ? "LEFT side: the old version, before the pull request" : place.side === "RIGHT" ? "RIGHT side: the pull request's version" : "side not given";
  const hunk = place.diffHunk.length > MAX_HUNK_CHARS ? `(… start of the hunk left out for length)\n${place.diffHunk.slice(-MAX_HUNK_CHARS)}` : place.diffHunk;
  return {
    source: "the review comment with the request: its place in the diff",
    text: `File: ${place.path}\nLines: ${lines} (${side})\nThe diff hunk it was written on (it ends at the commented line):\n\`\`\`diff\n${cleanText(hunk)}\n\`\`\``,
  };
}

/**
 * The other comments of the trigger's thread, oldest first, written before the command. Bots
 * count here (crewbot's own finding is often the thread's top): marked third-party like anyone
 * without write access.
 */
export function threadComments(items: PullItems, job: JobRecord, top: number, before: number): Dated[] {
  const thread = items.reviewComments.filter(
    (c) => threadTop(c) === top && c.id !== job.trigger.commentId && Date.parse(c.created_at) < before && Date.parse(c.updated_at) <= before,
  );
  return thread.slice(-MAX_THREAD_COMMENTS).map((c) => ({
    at: Date.parse(c.created_at),
    author: isBot(c.user) ? "" : login(c.user),
    source: `${c.id === top ? "the thread's first comment" : "a reply in the thread"}, by @${login(c.user)} on ${where(c)} on ${c.created_at}`,
    text: cleanText(c.body ?? ""),
  }));
}
