/**
 * A stand-in for GitHub's validation of `POST /repos/{o}/{r}/pulls/{n}/reviews`: the reasons it
 * would answer 422 for this review on this diff. Written apart from src/review/diff-lines.ts on
 * purpose (its own walk over hunk headers and line prefixes, no `diff` package), so tests of the
 * review builder do not have the code under test check itself.
 */

interface CheckedFile {
  path: string;
  binary: boolean;
  /** Per side, line number → index of the hunk it is in. */
  left: Map<number, number>;
  right: Map<number, number>;
}

/** Git's C-style quoting: `"a/x\tb"`, octal bytes for non-ASCII. */
function unquote(name: string): string {
  if (!name.startsWith('"')) return name;
  const bytes: number[] = [];
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, a: 7, b: 8, f: 12, v: 11, '"': 34, "\\": 92 };
  for (let i = 1; i < name.length - 1; i++) {
    const ch = name[i]!;
    if (ch !== "\\") {
      bytes.push(...Buffer.from(ch, "utf8"));
      continue;
    }
    const next = name[i + 1]!;
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(name.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

function headerPaths(rest: string): [string, string] | null {
  if (rest.startsWith('"')) {
    const end = rest.indexOf('" ', 1);
    // Good enough for test paths: a quoted name does not contain `" `.
    return [unquote(rest.slice(0, end + 1)).slice(2), unquote(rest.slice(end + 2)).slice(2)];
  }
  // Unquoted and same name on both sides (renames have their own headers): split in the middle.
  const half = (rest.length - 1) / 2;
  return [rest.slice(2, half), rest.slice(half + 3)];
}

function walk(diff: string): CheckedFile[] {
  const files: CheckedFile[] = [];
  let file: CheckedFile | null = null;
  let oldName: string | null = null;
  let newName: string | null = null;
  let hunk = -1;
  let oldLeft = 0;
  let newLeft = 0;
  let oldN = 0;
  let newN = 0;
  const finish = () => {
    if (file) file.path = newName ?? oldName ?? file.path;
  };
  for (const line of diff.split("\n")) {
    if (oldLeft > 0 || newLeft > 0) {
      const op = line === "" ? " " : line[0];
      if (op === "+" || op === " ") {
        file!.right.set(newN++, hunk);
        newLeft--;
      }
      if (op === "-" || op === " ") {
        file!.left.set(oldN++, hunk);
        oldLeft--;
      }
      continue;
    }
    if (line.startsWith("diff --git ")) {
      finish();
      const names = headerPaths(line.slice("diff --git ".length));
      oldName = names?.[0] ?? null;
      newName = names?.[1] ?? null;
      file = { path: newName ?? "", binary: false, left: new Map(), right: new Map() };
      files.push(file);
      hunk = -1;
      continue;
    }
    if (!file) continue;
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (m) {
      hunk++;
      oldN = Number(m[1]);
      oldLeft = m[2] === undefined ? 1 : Number(m[2]);
      newN = Number(m[3]);
      newLeft = m[4] === undefined ? 1 : Number(m[4]);
      continue;
    }
    if (line.startsWith("rename from ")) oldName = unquote(line.slice(12));
    else if (line.startsWith("rename to ")) newName = unquote(line.slice(10));
    else if (line.startsWith("--- ")) oldName = line.startsWith("--- /dev/null") ? null : unquote(line.slice(4).replace(/\t$/, "")).slice(2);
    else if (line.startsWith("+++ ")) newName = line.startsWith("+++ /dev/null") ? null : unquote(line.slice(4).replace(/\t$/, "")).slice(2);
    else if (line.startsWith("Binary files ") || line === "GIT binary patch") file.binary = true;
  }
  finish();
  return files;
}

export interface ReviewBody {
  event?: string;
  body?: string;
  comments?: { path: string; body: string; line: number; side?: string; start_line?: number; start_side?: string }[];
}

/** Why GitHub would refuse this review (empty: it would accept it). */
export function githubReviewProblems(diff: string, review: ReviewBody, options: { maxComments?: number } = {}): string[] {
  const problems: string[] = [];
  const files = new Map(walk(diff).map((f) => [f.path, f]));
  if (!["COMMENT", "APPROVE", "REQUEST_CHANGES"].includes(review.event ?? "")) problems.push(`bad event ${review.event}`);
  if ((review.body ?? "").length > 65_536) problems.push(`review body is ${review.body!.length} characters`);
  const comments = review.comments ?? [];
  if (comments.length > (options.maxComments ?? 25)) problems.push(`${comments.length} inline comments (crewbot's cap)`);
  for (const [i, c] of comments.entries()) {
    const at = `comment ${i} (${c.path}:${c.start_line ?? ""}${c.start_line ? "-" : ""}${c.line} ${c.side})`;
    if (!c.body || c.body.length > 65_536) problems.push(`${at}: body empty or over 65536 characters`);
    if (c.side !== "LEFT" && c.side !== "RIGHT") problems.push(`${at}: side must be LEFT or RIGHT`);
    const file = files.get(c.path);
    if (!file) {
      problems.push(`${at}: path is not in the diff`);
      continue;
    }
    if (file.binary) problems.push(`${at}: binary file`);
    const lines = c.side === "LEFT" ? file.left : file.right;
    if (!Number.isInteger(c.line) || !lines.has(c.line)) {
      problems.push(`${at}: line must be part of the diff`);
      continue;
    }
    if (c.start_line === undefined) {
      if (c.start_side !== undefined) problems.push(`${at}: start_side without start_line`);
      continue;
    }
    const startSide = c.start_side ?? c.side;
    const startLines = startSide === "LEFT" ? file.left : file.right;
    if (!startLines.has(c.start_line)) problems.push(`${at}: start_line must be part of the diff`);
    else if (startLines.get(c.start_line) !== lines.get(c.line)) problems.push(`${at}: start_line must be part of the same hunk as the line`);
    if (startSide === c.side && c.start_line >= c.line) problems.push(`${at}: start_line must precede the end line`);
  }
  return problems;
}
