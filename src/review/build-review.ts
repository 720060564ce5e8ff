/**
 * The reviewer's parsed output → the body of `POST /repos/{o}/{r}/pulls/{n}/reviews`.
 * GitHub answers 422 to the whole review when one comment sits on a line outside the diff, so a
 * finding goes inline only where diff-lines says GitHub accepts it; everything else — findings
 * elsewhere, past the inline cap, notes, the summary, files not reviewed — goes in the body.
 */
import type { Finding, ParsedReview, ReviewNote, Severity } from "./types.js";
import { hunkOf, lineText, type DiffFile, type Side } from "./diff-lines.js";
import { proofSection } from "./proofs.js";
import { fingerprint, fingerprintMarker } from "./fingerprint.js";
import { fitReplacement, proseFix, rightLines, suggestionBlock, withoutSuggestionBlock } from "./suggestion.js";
import type { Selection } from "./select-files.js";

export interface ReviewComment {
  path: string;
  body: string;
  line: number;
  side: Side;
  start_line?: number;
  start_side?: Side;
}

export interface ReviewRequest {
  event: "COMMENT";
  body: string;
  comments: ReviewComment[];
}

export type SeverityCounts = Record<Severity, number>;

/** One finding marked on the check run (DESIGN §2: shown in "Files changed" too). */
export interface ReviewAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: "notice" | "warning" | "failure";
  title: string;
  message: string;
}

export interface BuiltReview {
  request: ReviewRequest;
  /** Findings and notes of this review by severity (repeats of earlier reviews left out). */
  counts: SeverityCounts;
  /** No findings and no notes: the caller may skip posting. */
  clean: boolean;
  /** Findings left out because an earlier review posted them (see `alreadyPosted`). */
  repeated: number;
  /** Those findings by severity: found again, so still open. */
  repeatedCounts: SeverityCounts;
  /** Every new finding that can sit on a line of the head (RIGHT), inline or not. */
  annotations: ReviewAnnotation[];
  /** The new findings (inline or in the body), each with its fingerprint: what the store keeps for the gate. */
  fresh: Array<{ finding: Finding; fingerprint: string }>;
}

export interface BuildOptions {
  /** Fingerprints read back from earlier reviews (`postedFingerprints`); those findings are dropped. */
  alreadyPosted?: ReadonlySet<string>;
  /** Code at `path:line` for fingerprints; defaults to the diff's own lines. */
  lineText?: (path: string, line: number) => string | undefined;
  maxComments?: number;
  /** Inline only where this also holds; `files` still decide what GitHub accepts. */
  accept?: Accept;
  /** Committable ```suggestion blocks (`review.suggestions`); default true. */
  suggestions?: boolean;
  /** The review could run proofs: critical and warning findings without one say `unverified`. */
  proofsRan?: boolean;
  /** The Dependencies section (review/dependency-section.ts, capped there): kept whole, before "Not reviewed". */
  dependencies?: string;
}

export const MAX_INLINE_COMMENTS = 25;
export const MAX_COMMENT_CHARS = 60_000;
export const MAX_BODY_CHARS = 65_000;
const MAX_NOT_REVIEWED_CHARS = 15_000;
const TRUNCATED = "… truncated";

const ORDER: Severity[] = ["critical", "warning", "suggestion"];
const LABEL: Record<Severity, string> = { critical: "Critical", warning: "Warning", suggestion: "Suggestion" };
const LEVEL: Record<Severity, ReviewAnnotation["annotation_level"]> = { critical: "failure", warning: "warning", suggestion: "notice" };
/** An annotation's message is plain text (GitHub allows 64 KB); the whole finding is in the review. */
const MAX_ANNOTATION_CHARS = 4000;

/** A further condition on inline positions (an incremental review: only lines the new commits changed). */
export type Accept = (path: string, side: Side, line: number) => boolean;

export interface Placement {
  path: string;
  side: Side;
  line: number;
  startLine?: number;
}

/**
 * Where a finding can sit inline, or null. The reviewer numbers lines as in the head checkout
 * (RIGHT), except on a deleted file or a renamed file's old path, which only exist on LEFT.
 * A range needs both ends in one hunk; otherwise its end line alone, when that is in the diff.
 */
export function placeFinding(finding: Finding, files: readonly DiffFile[], accept: Accept = () => true): Placement | null {
  let file = files.find((f) => f.path === finding.path);
  let side: Side = file?.status === "deleted" ? "LEFT" : "RIGHT";
  if (!file) {
    file = files.find((f) => f.oldPath === finding.path);
    side = "LEFT";
  }
  if (!file) return null;
  const end = finding.endLine ?? finding.line;
  const endHunk = hunkOf(file, side, end);
  if (endHunk === undefined || !accept(file.path, side, end)) return null;
  const placement: Placement = { path: file.path, side, line: end };
  if (end > finding.line && hunkOf(file, side, finding.line) === endHunk && accept(file.path, side, finding.line)) placement.startLine = finding.line;
  return placement;
}

/** Code at a line as the diff shows it (RIGHT, or LEFT for deleted files and old paths). */
export function diffLineText(files: readonly DiffFile[]): (path: string, line: number) => string | undefined {
  return (path, line) => {
    const file = files.find((f) => f.path === path);
    if (file) return lineText(file, file.status === "deleted" ? "LEFT" : "RIGHT", line);
    const old = files.find((f) => f.oldPath === path);
    return old ? lineText(old, "LEFT", line) : undefined;
  };
}

/** Cuts `text` to at most `max` characters, never inside a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end);
}

/** Closes a code fence left open by a cut, so the rest of the body is not swallowed by it. */
function closeFences(text: string): string {
  const fences = text.split("\n").filter((l) => /^\s*(`{3,}|~{3,})/.test(l)).length;
  return fences % 2 === 1 ? `${text}\n\`\`\`` : text;
}

function code(text: string): string {
  return text.includes("`") ? `\`\` ${text} \`\`` : `\`${text}\``;
}

function location(f: Finding): string {
  return `${f.path}:${f.line}${f.endLine !== undefined ? `-${f.endLine}` : ""}`;
}

/**
 * The committable block, when GitHub can apply it: the comment covers exactly `line..endLine` on
 * RIGHT (one hunk, so every line of the range is in the diff). Null otherwise.
 */
function committable(f: Finding, placement: Placement, files: readonly DiffFile[]): string | null {
  if (f.suggestion === undefined || placement.side !== "RIGHT") return null;
  const end = f.endLine ?? f.line;
  if (placement.line !== end || (end > f.line && placement.startLine !== f.line)) return null;
  const original = rightLines(files.find((file) => file.path === placement.path)!, f.line, end);
  if (!original) return null;
  const block = suggestionBlock(fitReplacement(f.suggestion, original.lines), original.crlf);
  // A block too long for a comment is told in prose (cut, it would commit half a fix).
  return block.length <= MAX_COMMENT_CHARS / 2 ? block : null;
}

/** The finding's words: a ```suggestion block taken out (it goes below, or is told as prose). */
function findingText(f: Finding, block: string | null): string {
  if (f.suggestion === undefined) return f.text;
  const prose = withoutSuggestionBlock(f.text);
  if (block !== null) return prose;
  return `${prose}\n\n${proseFix(f.suggestion, f.line, f.endLine ?? f.line)}`;
}

/** The proof's lines as a paragraph of their own after the finding's words, or "". */
function proofPart(f: Finding, proofsRan: boolean): string {
  const section = proofSection(f, proofsRan);
  return section === "" ? "" : `\n\n${section}`;
}

function commentBody(f: Finding, placement: Placement, marker: string, block: string | null, proofsRan: boolean): string {
  const range = f.endLine !== undefined && placement.startLine === undefined ? ` _(lines ${f.line}–${f.endLine})_` : "";
  const head = `**${LABEL[f.severity]}**${range} — `;
  const tail = `${block === null ? "" : `\n\n${block}`}${proofPart(f, proofsRan)}\n\n${marker}`;
  let text = findingText(f, block);
  const room = MAX_COMMENT_CHARS - head.length - tail.length;
  if (text.length > room) text = `${closeFences(cut(text, room - TRUNCATED.length - 8))}\n\n${TRUNCATED}`;
  return head + text + tail;
}

/** A bullet whose continuation lines are indented under it, so code blocks stay in the item. */
function bullet(first: string, text: string): string {
  const [line0, ...more] = text.split("\n");
  return [`- ${first}${line0}`, ...more.map((l) => (l === "" ? "" : `  ${l}`))].join("\n");
}

function notReviewedSection(selection: Selection, total: number): string {
  const { notReviewed } = selection;
  if (notReviewed.length === 0) return "";
  const byReason = new Map<string, number>();
  for (const n of notReviewed) byReason.set(n.reason, (byReason.get(n.reason) ?? 0) + 1);
  const tally = [...byReason].map(([reason, n]) => `${n} ${reason}`).join(", ");
  const lines = [`### Not reviewed`, "", `${notReviewed.length} of ${total} changed files were not reviewed (${tally}):`, ""];
  let size = lines.join("\n").length;
  for (const [i, n] of notReviewed.entries()) {
    const line = `- ${code(n.path)} — ${n.reason}`;
    if (size + line.length + 1 > MAX_NOT_REVIEWED_CHARS) {
      lines.push(`- … and ${notReviewed.length - i} more`);
      break;
    }
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}

function otherFindingsSection(findings: { f: Finding; marker: string }[], proofsRan: boolean): string {
  if (findings.length === 0) return "";
  const byPath = new Map<string, { f: Finding; marker: string }[]>();
  for (const item of findings) {
    const list = byPath.get(item.f.path) ?? [];
    list.push(item);
    byPath.set(item.f.path, list);
  }
  const out = [
    "### Other findings",
    "",
    "On lines outside the diff, or past the inline comments a review gets.",
  ];
  for (const [path, items] of byPath) {
    out.push("", `#### ${code(path)}`, "");
    items.sort((a, b) => ORDER.indexOf(a.f.severity) - ORDER.indexOf(b.f.severity) || a.f.line - b.f.line);
    for (const { f, marker } of items) {
      // On its own line after a multi-line text, so it never lands on a closing code fence.
      const text = findingText(f, null) + proofPart(f, proofsRan);
      out.push(bullet(`**${LABEL[f.severity]}** ${code(location(f))} — `, text.includes("\n") ? `${text}\n${marker}` : `${text} ${marker}`));
    }
  }
  return out.join("\n");
}

function notesSection(notes: readonly ReviewNote[]): string {
  if (notes.length === 0) return "";
  const sorted = [...notes].sort((a, b) => ORDER.indexOf(a.severity) - ORDER.indexOf(b.severity));
  return ["### Notes", "", ...sorted.map((n) => bullet(`**${LABEL[n.severity]}** — `, n.text))].join("\n");
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * Builds the review request. Findings are sorted most severe first (stable), the first
 * `maxComments` placeable ones go inline, the rest into the body grouped by file. The body keeps
 * the "Not reviewed" list whole (up to its own cap) and truncates the part above it instead.
 */
export function buildReview(
  review: ParsedReview,
  files: readonly DiffFile[],
  selection: Selection,
  options: BuildOptions = {},
): BuiltReview {
  const maxComments = options.maxComments ?? MAX_INLINE_COMMENTS;
  const textAt = options.lineText ?? diffLineText(files);
  const posted = new Set(options.alreadyPosted ?? []);
  let repeated = 0;
  const repeatedCounts: SeverityCounts = { critical: 0, warning: 0, suggestion: 0 };
  const findings: { f: Finding; marker: string }[] = [];
  const fresh: BuiltReview["fresh"] = [];
  for (const f of review.findings) {
    const hash = fingerprint(f, textAt(f.path, f.line));
    if (posted.has(hash)) {
      repeated++;
      repeatedCounts[f.severity]++;
      continue;
    }
    posted.add(hash);
    findings.push({ f, marker: fingerprintMarker(hash) });
    fresh.push({ finding: f, fingerprint: hash });
  }
  findings.sort((a, b) => ORDER.indexOf(a.f.severity) - ORDER.indexOf(b.f.severity));
  const notes = review.notes ?? [];

  const comments: ReviewComment[] = [];
  const annotations: ReviewAnnotation[] = [];
  const inBody: { f: Finding; marker: string }[] = [];
  for (const item of findings) {
    const spot = placeFinding(item.f, files, options.accept);
    if (spot?.side === "RIGHT") annotations.push(annotationOf(item.f, spot));
    const placement = comments.length < maxComments ? spot : null;
    if (!placement) {
      inBody.push(item);
      continue;
    }
    const block = options.suggestions === false ? null : committable(item.f, placement, files);
    const comment: ReviewComment = {
      path: placement.path,
      body: commentBody(item.f, placement, item.marker, block, options.proofsRan === true),
      line: placement.line,
      side: placement.side,
    };
    if (placement.startLine !== undefined) {
      comment.start_line = placement.startLine;
      comment.start_side = placement.side;
    }
    comments.push(comment);
  }

  const counts: SeverityCounts = { critical: 0, warning: 0, suggestion: 0 };
  for (const { f } of findings) counts[f.severity]++;
  for (const n of notes) counts[n.severity]++;
  const clean = findings.length === 0 && notes.length === 0;

  const total = selection.reviewed.length + selection.notReviewed.length;
  const status = clean
    ? "Nothing to comment on."
    : `**${counts.critical} critical · ${plural(counts.warning, "warning")} · ${plural(counts.suggestion, "suggestion")}**` +
      (comments.length > 0 ? ` — ${plural(comments.length, "inline comment")}` : "");
  const head = [
    `## crewbot review`,
    `${status}\n\nReviewed ${selection.reviewed.length} of ${plural(total, "changed file")}.` +
      (repeated > 0 ? ` ${plural(repeated, "finding")} already posted on an earlier review ${repeated === 1 ? "is" : "are"} not repeated.` : ""),
    review.summary.trim(),
    notesSection(notes),
    otherFindingsSection(inBody, options.proofsRan === true),
  ]
    .filter((s) => s !== "")
    .join("\n\n");
  const tail = [options.dependencies ?? "", notReviewedSection(selection, total)].filter((s) => s !== "").join("\n\n");
  return { request: { event: "COMMENT", body: joinCapped(head, tail), comments }, counts, clean, repeated, repeatedCounts, annotations, fresh };
}

function annotationOf(f: Finding, placement: Placement): ReviewAnnotation {
  const text = withoutSuggestionBlock(f.text);
  return {
    path: placement.path,
    start_line: placement.startLine ?? placement.line,
    end_line: placement.line,
    annotation_level: LEVEL[f.severity],
    // What a reproducer showed is worth its word in "Files changed" too.
    title: f.proof?.outcome === "reproduced" ? `${LABEL[f.severity]} · 🔬 reproduced` : LABEL[f.severity],
    message: text.length <= MAX_ANNOTATION_CHARS ? text : `${cut(text, MAX_ANNOTATION_CHARS - TRUNCATED.length - 2)}\n\n${TRUNCATED}`,
  };
}

/** head + tail under MAX_BODY_CHARS; only the head is cut, at a line, with a visible note. */
function joinCapped(head: string, tail: string): string {
  const sep = tail === "" ? "" : "\n\n";
  if (head.length + sep.length + tail.length <= MAX_BODY_CHARS) return head + sep + tail;
  const note = `\n\n${TRUNCATED}: the review was longer than GitHub allows; the rest is in the job transcript.`;
  const room = MAX_BODY_CHARS - sep.length - tail.length - note.length - 8; // 8: a closing fence
  let kept = cut(head, room);
  const lastLine = kept.lastIndexOf("\n");
  if (lastLine > 0) kept = kept.slice(0, lastLine);
  return closeFences(kept) + note + sep + tail;
}
