/**
 * What the describer reads besides the pull request itself: its commits, the issues it links
 * (closing keywords in its description or commit messages), and its diff. Text from GitHub is
 * cleaned of hidden text and marked as data by the prompt (text/prompt.ts).
 */
import type { ContextSection } from "../text/prompt.js";
import { cleanText } from "../text/clean-text.js";
import type { DiffFile } from "../review/diff-lines.js";
import { cappedDiff } from "../review/review-context.js";
import { capMiddle } from "../text/cap-middle.js";
import { SUMMARY_END, SUMMARY_START } from "./render-summary.js";

/** Issues read at most; the rest are named only. */
export const MAX_LINKED_ISSUES = 3;
const MAX_ISSUE_CHARS = 4000;
const MAX_COMMITS = 50;

/** GitHub's closing keywords before `#n` (same repository): the issues a pull request says it resolves. */
const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+#(\d+)\b/gi;

export function linkedIssueNumbers(texts: readonly string[], self: number): number[] {
  const found = new Set<number>();
  for (const text of texts) for (const m of text.matchAll(CLOSING)) found.add(Number(m[1]));
  found.delete(self);
  return [...found];
}

/** crewbot's own block is not a source for its next version. */
export function withoutSummaryBlock(body: string): string {
  const start = body.indexOf(SUMMARY_START);
  const end = body.indexOf(SUMMARY_END, start);
  return start < 0 || end < 0 ? body : body.slice(0, start) + body.slice(end + SUMMARY_END.length);
}

export interface SummarySources {
  number: number;
  headSha: string;
  commits: readonly { sha: string; message: string }[];
  issues: readonly { number: number; title: string; body: string }[];
  files: readonly DiffFile[];
}

export function summaryContext(s: SummarySources): ContextSection[] {
  const commits = s.commits.slice(-MAX_COMMITS).map((c) => `- ${c.sha.slice(0, 7)} ${cleanText(c.message).trim().replace(/\n+/g, "\n  ")}`);
  if (s.commits.length > MAX_COMMITS) commits.unshift(`(${s.commits.length - MAX_COMMITS} earlier commits left out)`);
  const sections: ContextSection[] = [{ source: `the commits of pull request #${s.number}`, text: commits.join("\n") || "(none)" }];
  for (const issue of s.issues) {
    sections.push({ source: `issue #${issue.number}, which the pull request links`, text: `${cleanText(issue.title)}\n\n${capMiddle(cleanText(issue.body), MAX_ISSUE_CHARS, "of the issue")}` });
  }
  const diff = cappedDiff(s.files);
  const list = s.files.map((f) => `- ${f.path} (${f.status})`).join("\n");
  sections.push({ source: `the changed files of pull request #${s.number} (head ${s.headSha.slice(0, 7)})`, text: list || "(no changed files)" });
  sections.push({ source: `the changes of pull request #${s.number} against its merge base (git diff)`, text: diff || "(no changes)" });
  return sections;
}
