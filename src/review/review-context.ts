/** What the reviewer reads: the diff of the files chosen for review, as plain unified diff text. */
import type { ContextSection } from "../text/prompt.js";
import type { DiffFile } from "./diff-lines.js";
import type { Selection } from "./select-files.js";

/** Above this the reviewer gets the diffs that fit (in selection order) and reads the rest itself. */
export const MAX_DIFF_CONTEXT_CHARS = 200_000;

const PREFIX = { add: "+", del: "-", context: " " } as const;

/** One file's diff again, from its parsed hunks (header, hunks, line prefixes). */
export function renderFileDiff(file: DiffFile): string {
  const from = file.status === "added" ? "/dev/null" : `a/${file.oldPath ?? file.path}`;
  const to = file.status === "deleted" ? "/dev/null" : `b/${file.path}`;
  const head = [`--- ${from}`, `+++ ${to}`];
  if (file.binary) return [...head, "(binary file)"].join("\n");
  const body = file.hunks.flatMap((h) => [
    `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`,
    ...h.lines.flatMap((l) => (l.noNewline ? [PREFIX[l.kind] + l.text, "\\ No newline at end of file"] : [PREFIX[l.kind] + l.text])),
  ]);
  return [...head, ...body].join("\n");
}

export interface ReviewScope {
  /** The PR's number and head. */
  number: number;
  headSha: string;
  /** Set for an incremental review: the commit reviewed last time. */
  since?: string;
  /** An incremental review's changes that came from merging the base branch, left out. */
  baseLeftOut?: { files: string[]; lines: number };
}

/** The files whose diffs fit MAX_DIFF_CONTEXT_CHARS in order (whole files only, a later small one too), their text, and the rest. */
function fitDiffs(files: readonly DiffFile[]): { text: string; shown: DiffFile[]; leftOut: DiffFile[] } {
  let text = "";
  const shown: DiffFile[] = [];
  const leftOut: DiffFile[] = [];
  for (const file of files) {
    const diff = renderFileDiff(file);
    if (text.length + diff.length + 1 > MAX_DIFF_CONTEXT_CHARS) {
      leftOut.push(file);
    } else {
      text += `${diff}\n`;
      shown.push(file);
    }
  }
  return { text, shown, leftOut };
}

/** The files' diffs up to MAX_DIFF_CONTEXT_CHARS, whole files only; the rest named, to read in the checkout. */
export function cappedDiff(files: readonly DiffFile[]): string {
  const { text, leftOut } = fitDiffs(files);
  if (leftOut.length === 0) return text;
  return `${text}\n(The diff is too long to show whole. Read these changed files in the checkout: ${leftOut.map((f) => f.path).join(", ")})\n`;
}

/**
 * A review with no file tools (one look) reviews only the diffs its context can show: the files
 * that do not fit are not reviewed, over the review budget, and the report says so.
 */
export function withinDiffContext(selection: Selection): Selection {
  const { shown, leftOut } = fitDiffs(selection.reviewed);
  if (leftOut.length === 0) return selection;
  return { reviewed: shown, notReviewed: [...selection.notReviewed, ...leftOut.map((f) => ({ path: f.path, reason: "over the review budget" as const }))] };
}

/**
 * The context sections of a review: which changes (all of the PR, or the commits since the last
 * review), the diff of the selected files, and the files left out with why.
 */
export function reviewContext(selection: Selection, scope: ReviewScope): ContextSection[] {
  const what = scope.since
    ? `the changes of pull request #${scope.number} since the last review (${scope.since.slice(0, 7)}..${scope.headSha.slice(0, 7)}); review only these`
    : `the changes of pull request #${scope.number} against its merge base (head ${scope.headSha.slice(0, 7)})`;
  const text = cappedDiff(selection.reviewed);
  const sections: ContextSection[] = [{ source: `${what} (git diff)`, text: text || "(no changes)" }];
  const base = scope.baseLeftOut;
  if (base && (base.files.length > 0 || base.lines > 0)) {
    const files = base.files.length > 0 ? ` Files only the base branch changed: ${base.files.slice(0, 50).join(", ")}${base.files.length > 50 ? ", …" : ""}.` : "";
    sections.push({
      source: "changes of the base branch merged into the pull request (not to review)",
      text: `The new commits merge the base branch; its changes are not part of this pull request and are left out of the diff above (${base.lines} changed line${base.lines === 1 ? "" : "s"} in files the pull request changes are shown as unchanged context, if at all).${files}`,
    });
  }
  if (selection.notReviewed.length > 0) {
    const list = selection.notReviewed.map((n) => `- ${n.path}: ${n.reason}`).join("\n");
    sections.push({ source: "changed files not to review (listed in the review body already)", text: list });
  }
  return sections;
}
