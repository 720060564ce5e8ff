import type { ContextSection } from "../chain/prompt.js";
import { PermissionCache } from "../github/permission-cache.js";
import { canWrite, type InstallationOctokit } from "../github/types.js";
import type { JobRecord } from "../queue/types.js";
import { cleanText } from "./clean-text.js";

/** Above this, the oldest comments are left out (the newest say most about the request). */
export const MAX_CONTEXT_CHARS = 120_000;
/** Authors whose permission is looked up per job; later ones are marked third-party. */
const MAX_PERMISSION_LOOKUPS = 20;

interface IssueComment {
  id: number;
  body?: string | null;
  created_at: string;
  updated_at: string;
  user: { login: string; type: string } | null;
}

/**
 * What the agents read of the issue or PR: its title and body as they were when the command was
 * written, and the comments written before the command and not edited since — cleaned of hidden
 * text, each marked with its author, and marked third-party when the author cannot write to the
 * repository. Bots' comments are left out (crewbot's own progress comments among them).
 */
export async function issueContext(
  octokit: InstallationOctokit,
  job: JobRecord,
  permissions: PermissionCache = new PermissionCache(),
): Promise<ContextSection[]> {
  const { owner, repo, number, isPullRequest } = job.target;
  const noun = isPullRequest ? "pull request" : "issue";
  const sections: ContextSection[] = [];
  const writers = writersOf(octokit, owner, repo, permissions);

  if (job.subject) {
    sections.push({
      source: `${noun} #${number} by @${job.subject.author}: ${cleanText(job.subject.title)}`,
      text: cleanText(job.subject.body) || "(no description)",
      thirdParty: !(await writers.canWrite(job.subject.author)),
    });
  }

  const triggerTime = job.trigger.commentCreatedAt ? Date.parse(job.trigger.commentCreatedAt) : Number.POSITIVE_INFINITY;
  const comments = (await octokit.paginate("GET /repos/{owner}/{repo}/issues/{issue_number}/comments", {
    owner,
    repo,
    issue_number: number,
    per_page: 100,
  })) as IssueComment[];
  const before = comments.filter(
    (c) =>
      c.id !== job.trigger.commentId &&
      c.user?.type !== "Bot" &&
      Date.parse(c.created_at) < triggerTime &&
      Date.parse(c.updated_at) <= triggerTime,
  );

  const rendered: ContextSection[] = [];
  for (const comment of before) {
    const author = comment.user?.login ?? "ghost";
    rendered.push({
      source: `comment by @${author} on ${comment.created_at}`,
      text: cleanText(comment.body ?? ""),
      thirdParty: !(await writers.canWrite(author)),
    });
  }
  return [...sections, ...newestWithin(rendered, MAX_CONTEXT_CHARS - size(sections))];
}

const size = (sections: ContextSection[]) => sections.reduce((n, s) => n + s.text.length + s.source.length, 0);

/** The newest comments that fit, in their original order, with a note for what was left out. */
function newestWithin(comments: ContextSection[], budget: number): ContextSection[] {
  const kept: ContextSection[] = [];
  let used = 0;
  for (let i = comments.length - 1; i >= 0; i--) {
    const cost = comments[i]!.text.length + comments[i]!.source.length;
    if (used + cost > budget) {
      kept.unshift({ source: "crewbot", text: `(${i + 1} older comments left out for length)` });
      break;
    }
    used += cost;
    kept.unshift(comments[i]!);
  }
  return kept;
}

/** At most one permission lookup per author and job; past the cap, unknown authors count as third-party. */
function writersOf(octokit: InstallationOctokit, owner: string, repo: string, permissions: PermissionCache) {
  const asked = new Set<string>();
  return {
    async canWrite(login: string): Promise<boolean> {
      const key = login.toLowerCase();
      if (!asked.has(key) && asked.size >= MAX_PERMISSION_LOOKUPS) return false;
      asked.add(key);
      return canWrite(await permissions.get(octokit, owner, repo, login));
    },
  };
}
