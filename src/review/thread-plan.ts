/**
 * crewbot's review threads on a pull request, as GitHub's GraphQL `reviewThreads` gives them,
 * and what a review does with them: resolve those whose lines later commits changed, never post
 * again the finding of a thread that was resolved (by crewbot or a person) or that a writer
 * dismissed ("won't fix"), and hand the open ones to "Fix these findings" and the gate. A thread
 * resolved by someone who may not close a finding (no write permission) stays open. Pure.
 */
import type { Finding } from "./types.js";
import type { DiffFile } from "./diff-lines.js";
import { fingerprint, normaliseRule, postedFingerprints } from "./fingerprint.js";
import { withoutSuggestionBlock } from "./suggestion.js";

export interface ThreadComment {
  databaseId: number | null;
  body: string;
  /** GraphQL names a GitHub App's bot by its slug, without REST's `[bot]`; null for a deleted account. */
  author: { login: string } | null;
  /** The commit the comment was made on: where `originalLine` counts. */
  originalCommit: { oid: string } | null;
  /** The comment's page; absent in threads read by an older query. */
  url?: string;
}

export interface ReviewThread {
  /** The node id `resolveReviewThread` takes. */
  id: string;
  isResolved: boolean;
  isOutdated: boolean;
  path: string;
  /** Its line on the pull request's head; null once outdated. */
  line: number | null;
  startLine: number | null;
  originalLine: number | null;
  originalStartLine: number | null;
  diffSide: "LEFT" | "RIGHT";
  /** Who resolved it: a person (GraphQL's `User`); null when not resolved, or resolved by a bot or a deleted account. */
  resolvedBy?: { login: string } | null;
  /** Oldest first: the thread's own comment, then the replies. */
  comments: ThreadComment[];
}

/**
 * Replies that dismiss a finding, matched at the start of the reply's first line that is not a
 * quote, so "I don't think this is a false positive" does not count.
 */
export const DISMISSAL_PHRASES = [
  "won't fix",
  "wont fix",
  "wontfix",
  "will not fix",
  "not a bug",
  "false positive",
  "not an issue",
  "by design",
  "works as intended",
  "working as intended",
] as const;

const FINDING_MARKER = /<!--\s*crewbot:finding:[0-9a-f]{16}\s*-->/;

/** `crewbot`, `crewbot[bot]` and `Crewbot` are one account (GraphQL drops the suffix, REST keeps it). */
export function sameBot(login: string | undefined | null, slug: string): boolean {
  const bare = (s: string) => s.toLowerCase().replace(/\[bot\]$/, "");
  return typeof login === "string" && bare(login) === bare(slug);
}

/** A thread crewbot started with one of its findings. */
export function isOwnThread(thread: ReviewThread, slug: string): boolean {
  const top = thread.comments[0];
  return top !== undefined && sameBot(top.author?.login, slug) && FINDING_MARKER.test(top.body);
}

/** Whether a reply's text dismisses the finding. */
export function isDismissal(body: string): boolean {
  const first = body
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l !== "" && !l.startsWith(">"));
  if (!first) return false;
  const text = first.toLowerCase().replace(/[\u2018\u2019`´]/g, "'").replace(/^[*_~\s]+/, "");
  return DISMISSAL_PHRASES.some((p) => text.startsWith(p) && !/[a-z0-9]/.test(text.charAt(p.length)));
}

/** The people (not crewbot, not another bot's slug we know) who dismissed the finding in a reply. */
export function dismissers(thread: ReviewThread, slug: string): string[] {
  const logins = thread.comments.slice(1).flatMap((c) => (c.author && !sameBot(c.author.login, slug) && isDismissal(c.body) ? [c.author.login] : []));
  return [...new Set(logins)];
}

/** The RIGHT-side lines a thread marks on the commit it was made on, or undefined when GitHub did not say. */
export function threadLines(thread: ReviewThread): { commit: string; from: number; to: number } | undefined {
  const commit = thread.comments[0]?.originalCommit?.oid;
  const to = thread.originalLine;
  if (thread.diffSide !== "RIGHT" || !commit || to === null) return undefined;
  return { commit, from: Math.min(thread.originalStartLine ?? to, to), to };
}

/**
 * Whether the diff `commit..head` changes any of the lines `from..to` of `path` as it was at
 * `commit`: one of them deleted or replaced, or the file deleted. A file the diff leaves alone,
 * and lines that only moved, are unchanged.
 */
export function linesChanged(files: readonly DiffFile[], path: string, from: number, to: number): boolean {
  const file = files.find((f) => (f.oldPath ?? f.path) === path);
  if (!file) return false;
  if (file.status === "deleted") return true;
  return file.hunks.some((h) => h.lines.some((l) => l.kind === "del" && l.oldLine !== undefined && l.oldLine >= from && l.oldLine <= to));
}

export interface ThreadPlan {
  /** Open threads of crewbot's whose lines the new commits changed: resolved now. */
  resolve: ReviewThread[];
  /** Threads whose finding is closed and never posted again: resolved (now or before, by crewbot or a writer) or dismissed by a writer. */
  closed: ReviewThread[];
  /** Crewbot's threads still open after this: the findings "Fix these findings" works on and the gate counts. */
  open: ReviewThread[];
  /** Those of `open` that someone resolved who may not close a finding: GitHub shows them resolved. */
  refused: ReviewThread[];
}

/**
 * Whether a thread's resolution closes its finding: `closes` when crewbot or a writer resolved it,
 * `refused` when someone else did (or GitHub does not say who: a bot, a deleted account).
 */
export type Resolution = "closes" | "refused";

/**
 * What a review does with crewbot's threads. `changed(thread)` says whether later commits changed
 * its lines (undefined: unknown, e.g. its commit is gone after a force-push: left open);
 * `dismissed(thread)` whether a writer dismissed it; `resolution(thread)` whether a resolved
 * thread's resolution counts (by default every one does).
 */
export function planThreads(
  threads: readonly ReviewThread[],
  slug: string,
  changed: (thread: ReviewThread) => boolean | undefined,
  dismissed: (thread: ReviewThread) => boolean,
  resolution: (thread: ReviewThread) => Resolution = () => "closes",
): ThreadPlan {
  const plan: ThreadPlan = { resolve: [], closed: [], open: [], refused: [] };
  for (const thread of threads) {
    if (!isOwnThread(thread, slug)) continue;
    if ((thread.isResolved && resolution(thread) === "closes") || dismissed(thread)) plan.closed.push(thread);
    else if (changed(thread) === true) {
      // Fixed by a push: resolved now, unless someone resolved it already.
      if (!thread.isResolved) plan.resolve.push(thread);
      plan.closed.push(thread);
    } else {
      plan.open.push(thread);
      if (thread.isResolved) plan.refused.push(thread);
    }
  }
  return plan;
}

/** The fingerprint crewbot's comment that opened the thread carries, if any. */
export function threadFingerprint(thread: ReviewThread): string | undefined {
  return threadFingerprints([thread])[0];
}

/** The finding's words in crewbot's comment: severity label, range note, suggestion block and marker taken off. */
export function threadFindingText(body: string): string {
  const words = body.replace(/^\*\*\w+\*\*(?: _\(lines \d+–\d+\)_)? — /, "").replace(/<!--\s*crewbot:finding:[0-9a-f]{16}\s*-->/g, "");
  return withoutSuggestionBlock(words).trim();
}

/**
 * Whether a new finding is the finding of one of these threads: same file, and the thread's text
 * starts with the finding's (a comment adds a fix in prose, or is cut when long). Lines are not
 * compared: code that moved or changed does not make a dismissed finding new.
 */
export function isThreadFinding(finding: Pick<Finding, "path" | "text">, threads: readonly ReviewThread[]): boolean {
  const words = normaliseRule(withoutSuggestionBlock(finding.text));
  if (words === "") return false;
  return threads.some((t) => t.path === finding.path && t.comments[0] !== undefined && normaliseRule(threadFindingText(t.comments[0].body)).startsWith(words));
}

/** The fingerprints carried by these threads' comments: a store that forgot them still never re-posts them. */
export function threadFingerprints(threads: readonly ReviewThread[]): string[] {
  return [...postedFingerprints(threads.flatMap((t) => (t.comments[0] ? [t.comments[0].body] : [])))];
}

/** One open finding for the worker and the report: where it is and what it says. */
export function describeThread(thread: ReviewThread): string {
  const line = thread.line ?? thread.originalLine;
  const start = thread.startLine ?? thread.originalStartLine;
  const where = line === null ? thread.path : `${thread.path}:${start !== null && start !== line ? `${start}-${line}` : line}`;
  const text = threadFindingText(thread.comments[0]?.body ?? "").replace(/\s+/g, " ");
  return `${where} — ${text.length > 300 ? `${text.slice(0, 297)}…` : text}`;
}

/**
 * The findings left after taking out those of closed threads (resolved or dismissed): by the
 * fingerprint their comment carries, or by file and words. `lineText` gives the code at a line.
 */
export function withoutClosedFindings<F extends Finding>(
  findings: readonly F[],
  closed: readonly ReviewThread[],
  lineText: (path: string, line: number) => string | undefined,
): { kept: F[]; dropped: number } {
  if (closed.length === 0) return { kept: [...findings], dropped: 0 };
  const prints = new Set(threadFingerprints(closed));
  const kept = findings.filter((f) => !prints.has(fingerprint(f, lineText(f.path, f.line))) && !isThreadFinding(f, closed));
  return { kept, dropped: findings.length - kept.length };
}
