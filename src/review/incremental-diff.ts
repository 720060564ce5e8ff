/**
 * An incremental review reads `last..head`, which after "Update branch" (the base merged into
 * the pull request) holds the base's changes too. Only what is also in the pull request's own
 * diff (`merge-base..head`) is kept: an added line when the PR's diff adds that head line, a
 * deleted line when the PR's diff deletes the same text between the same two lines of the head. Lines the
 * base brought in stay as context (they are in the head) and are never commented on. Pure.
 */
import { positionKey, type DiffFile, type DiffHunk, type DiffLine } from "./diff-lines.js";

/** Context lines kept around each change, as git prints them. */
const CONTEXT_LINES = 3;

export interface IncrementalDiff {
  /** The changes of `last..head` that the pull request's diff has too, re-hunked. */
  files: DiffFile[];
  /** RIGHT-side positions an inline comment of this review may take: kept added lines and real context. */
  commentable: Set<string>;
  /** What the base branch brought in, left out: whole files, and lines in files the PR changes. */
  leftOut: { files: string[]; lines: number };
}

/** The head line before a hunk's first line (0: the top of the file). */
const hunkStart = (hunk: DiffHunk) => (hunk.newLines === 0 ? hunk.newStart : hunk.newStart - 1);

/** Where one deleted text sits: the head lines it comes after, in order, and how many are used up or passed. */
interface Places {
  after: number[];
  next: number;
}

/** Each deleted text, with the head lines it sits after (0: before the first line), for matching across diffs. */
function deletions(file: DiffFile): Map<string, Places> {
  const found = new Map<string, Places>();
  for (const hunk of file.hunks) {
    let after = hunkStart(hunk);
    for (const line of hunk.lines) {
      if (line.newLine !== undefined) after = line.newLine;
      else {
        const places = found.get(line.text);
        if (places) places.after.push(after);
        else found.set(line.text, { after: [after], next: 0 });
      }
    }
  }
  return found;
}

/**
 * For each line: the head lines of the context around its run of changes. Git prints a run's
 * deletions before its additions, so a deleted line is only placed between those two context
 * lines; the PR's diff, against another base, may order the same run differently.
 */
function contextAround(hunk: DiffHunk): Array<[number, number]> {
  const around: Array<[number, number]> = [];
  let before = hunkStart(hunk);
  for (const line of hunk.lines) {
    around.push([before, 0]);
    if (line.kind === "context") before = line.newLine!;
  }
  let after = hunkStart(hunk) + hunk.newLines + 1;
  for (let i = hunk.lines.length - 1; i >= 0; i--) {
    around[i]![1] = after;
    if (hunk.lines[i]!.kind === "context") after = hunk.lines[i]!.newLine!;
  }
  return around;
}

/**
 * Whether the PR's diff deletes `text` between head lines `from` and `to`; a match is used once.
 * The places are in order and a file's deletions are asked for in order (`from` never goes back),
 * so a place before `from` is passed for good: the first place left is the one to take, and a file
 * of many identical deleted lines is matched in one pass.
 */
function takeDeletion(deleted: Map<string, Places>, text: string, [from, to]: [number, number]): boolean {
  const places = deleted.get(text);
  if (!places) return false;
  while (places.next < places.after.length && places.after[places.next]! < from) places.next++;
  if (places.next === places.after.length || places.after[places.next]! >= to) return false;
  places.next++;
  return true;
}

const addedLines = (file: DiffFile) => new Set(file.hunks.flatMap((h) => h.lines.filter((l) => l.kind === "add").map((l) => l.newLine!)));

interface Marked {
  line: DiffLine;
  change: boolean;
  /** A line the base brought in, shown as context: not commentable. */
  base: boolean;
}

/** One hunk's lines with the base's changes neutralised: its adds become context, its deletions go. */
function markHunk(hunk: DiffHunk, added: Set<number>, deleted: Map<string, Places>, counts: { lines: number }): Marked[] {
  const out: Marked[] = [];
  const around = contextAround(hunk);
  for (const [i, line] of hunk.lines.entries()) {
    if (line.kind === "del") {
      if (takeDeletion(deleted, line.text, around[i]!)) out.push({ line, change: true, base: false });
      else counts.lines++;
      continue;
    }
    if (line.kind === "add" && !added.has(line.newLine!)) {
      counts.lines++;
      out.push({ line: { ...line, kind: "context" }, change: false, base: true });
    } else out.push({ line, change: line.kind !== "context", base: false });
  }
  return out;
}

/** Index ranges [from, to) of lines within CONTEXT_LINES of a change: the hunks git would print. */
function runs(marked: Marked[]): Array<[number, number]> {
  const near = marked.map(() => false);
  marked.forEach((m, i) => {
    if (!m.change) return;
    for (let j = Math.max(0, i - CONTEXT_LINES); j <= Math.min(marked.length - 1, i + CONTEXT_LINES); j++) near[j] = true;
  });
  const out: Array<[number, number]> = [];
  near.forEach((isNear, i) => {
    if (!isNear) return;
    if (i === 0 || !near[i - 1]) out.push([i, i + 1]);
    else out.at(-1)![1] = i + 1;
  });
  return out;
}

/**
 * One run as a hunk. The old side is the head without the kept changes: `delta` is how far old
 * numbers run ahead of new ones before the run (kept deletions minus kept additions), `after`
 * the head line just before it.
 */
function toHunk(run: Marked[], delta: number, after: number): DiffHunk {
  const lines: DiffLine[] = [];
  let d = delta;
  let prev = after;
  for (const { line } of run) {
    if (line.kind === "del") {
      lines.push({ ...line, oldLine: prev + 1 + d });
      d++;
      continue;
    }
    if (line.kind === "add") {
      lines.push(line);
      d--;
    } else lines.push({ ...line, oldLine: line.newLine! + d });
    prev = line.newLine!;
  }
  const olds = lines.flatMap((l) => (l.oldLine === undefined ? [] : [l.oldLine]));
  const news = lines.flatMap((l) => (l.newLine === undefined ? [] : [l.newLine]));
  // An empty side starts at the line before (git's `@@ -0,0 +1,2 @@`).
  return { oldStart: olds[0] ?? after + delta, oldLines: olds.length, newStart: news[0] ?? after, newLines: news.length, lines };
}

const shift = (m: Marked) => (m.change ? (m.line.kind === "del" ? 1 : -1) : 0);

function keepFile(file: DiffFile, pr: DiffFile, commentable: Set<string>, counts: { lines: number }): DiffFile | undefined {
  if (file.binary || file.hunks.length === 0) return file;
  const added = addedLines(pr);
  const deleted = deletions(pr);
  const hunks: DiffHunk[] = [];
  let delta = 0;
  for (const hunk of file.hunks) {
    const marked = markHunk(hunk, added, deleted, counts);
    // Before each line: the head line it follows, and the old-minus-new offset of the kept changes.
    const afterAt: number[] = [];
    const deltaAt: number[] = [];
    let after = hunkStart(hunk);
    marked.forEach((m, i) => {
      afterAt[i] = after;
      deltaAt[i] = delta;
      if (m.line.newLine !== undefined) after = m.line.newLine;
      delta += shift(m);
    });
    for (const [from, to] of runs(marked)) {
      const run = marked.slice(from, to);
      hunks.push(toHunk(run, deltaAt[from]!, afterAt[from]!));
      for (const m of run) if (!m.base && m.line.newLine !== undefined) commentable.add(positionKey(file.path, "RIGHT", m.line.newLine));
    }
  }
  if (hunks.length === 0) return undefined;
  const count = (kind: DiffLine["kind"]) => hunks.reduce((n, h) => n + h.lines.filter((l) => l.kind === kind).length, 0);
  return { ...file, hunks, additions: count("add"), deletions: count("del") };
}

/** The part of `since` (the diff `last..head`) that is also in `pullRequest` (the diff `merge-base..head`). */
export function withinPullRequest(since: readonly DiffFile[], pullRequest: readonly DiffFile[]): IncrementalDiff {
  const byPath = new Map(pullRequest.map((f) => [f.path, f]));
  const files: DiffFile[] = [];
  const commentable = new Set<string>();
  const counts = { lines: 0 };
  const leftOutFiles: string[] = [];
  for (const file of since) {
    const pr = byPath.get(file.path);
    const kept = pr && keepFile(file, pr, commentable, counts);
    if (kept) files.push(kept);
    else leftOutFiles.push(file.path);
  }
  return { files, commentable, leftOut: { files: leftOutFiles, lines: counts.lines } };
}
