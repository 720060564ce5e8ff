/**
 * A pull request merged (or closed) on a head crewbot's reviews never saw — a fix pushed and merged
 * before its review ran: which kept findings that head fixed, by the rule a review uses (a push
 * changed their lines since the commit each was posted on). Read through GitHub's compare, as there
 * is no checkout at close; a commit no longer in the head's history (force-push) says nothing, as in
 * a review. Bounded: at most MAX_COMPARES commits, and diffs of at most MAX_DIFF_CHARS.
 */
import type { InstallationOctokit } from "../github/types.js";
import { DiffParseError, parseDiff, type DiffFile } from "../review/diff-lines.js";
import type { StoredFinding } from "../review/review-store.js";
import { linesChanged } from "../review/thread-plan.js";

const MAX_COMPARES = 10;
const MAX_DIFF_CHARS = 5_000_000;

interface Repo {
  owner: string;
  repo: string;
}

/** Fingerprints of the kept findings `head` fixed that no review marked fixed; `reviewed` is the last head a review saw. */
export async function fixedAtClose(octokit: InstallationOctokit, repo: Repo, findings: readonly StoredFinding[], reviewed: string, head: string, log: (line: string) => void): Promise<Set<string>> {
  const fixed = new Set<string>();
  if (head === reviewed) return fixed;
  const pending = findings.filter((f) => !f.fixed && f.commit && f.commit !== head);
  const commits = [...new Set(pending.map((f) => f.commit))];
  if (commits.length > MAX_COMPARES) log(`${commits.length} commits hold unfixed findings; the first ${MAX_COMPARES} are compared with the closing head, the rest count as open`);
  for (const commit of commits.slice(0, MAX_COMPARES)) {
    const files = await changesSince(octokit, repo, commit, head).catch((error: unknown) => {
      log(`could not compare ${commit.slice(0, 7)} with the closing head ${head.slice(0, 7)}: ${(error as Error).message}`);
      return undefined;
    });
    if (!files) continue;
    for (const f of pending) if (f.commit === commit && linesChanged(files, f.path, f.line, f.endLine ?? f.line)) fixed.add(f.fingerprint);
  }
  return fixed;
}

/** The diff from `commit` to `head` when `commit` is in `head`'s history; undefined otherwise. */
async function changesSince(octokit: InstallationOctokit, { owner, repo }: Repo, commit: string, head: string): Promise<DiffFile[] | undefined> {
  const basehead = `${commit}...${head}`;
  const { data } = await octokit.request("GET /repos/{owner}/{repo}/compare/{basehead}", { owner, repo, basehead, per_page: 1 });
  if (data.status !== "ahead") return undefined;
  const diff = await octokit.request("GET /repos/{owner}/{repo}/compare/{basehead}", { owner, repo, basehead, mediaType: { format: "diff" } });
  const text = diff.data as unknown;
  if (typeof text !== "string") throw new Error("GitHub's compare gave no diff text");
  if (text.length > MAX_DIFF_CHARS) throw new Error(`its diff is ${text.length.toLocaleString("en-US")} characters; at most ${MAX_DIFF_CHARS.toLocaleString("en-US")} are read`);
  try {
    return parseDiff(text);
  } catch (error) {
    if (error instanceof DiffParseError) throw new Error(`its diff could not be read: ${error.message}`);
    throw error;
  }
}
