import type { ContextSection } from "../text/prompt.js";
import { PermissionCache } from "../github/permission-cache.js";
import type { InstallationOctokit } from "../github/types.js";
import { canWrite } from "../github/permission.js";
import type { JobRecord } from "../queue/types.js";
import { capMiddle } from "../text/cap-middle.js";
import { cleanText } from "../text/clean-text.js";
import { fetchPullItems, placeSection, pullTimeline, threadComments, threadTop, triggerPlace, type Dated } from "./pull-context.js";

/** Above this, the oldest comments are left out (the newest say most about the request). */
export const MAX_CONTEXT_CHARS = 120_000;
/** The description keeps at most this much (its start and end), each comment at most MAX_COMMENT_CHARS. */
export const MAX_SUBJECT_CHARS = 60_000;
const MAX_COMMENT_CHARS = 20_000;
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
 * written, and the comments written before the command and not edited since — on a PR also its
 * review bodies and review comments, in one timeline — cleaned of hidden text, each marked with
 * its author, and marked third-party when the author cannot write to the repository. Bots'
 * comments are left out (crewbot's own progress comments among them). A command typed in a
 * review thread comes with its place in the diff and its thread, ahead of the timeline.
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
    // The title is text its author wrote: it goes in the document, where the prompt neutralises
    // tags, never into the source attribute, which only ever holds what crewbot writes.
    const title = oneLine(cleanText(job.subject.title));
    const body = capMiddle(cleanText(job.subject.body), MAX_SUBJECT_CHARS, "of the description") || "(no description)";
    sections.push({
      source: `${noun} #${number} by @${job.subject.author}`,
      text: `Title: ${title}\n\n${body}`,
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

  const timeline: Dated[] = before.map((c) => ({
    at: Date.parse(c.created_at),
    author: c.user?.login ?? "ghost",
    source: `comment by @${c.user?.login ?? "ghost"} on ${c.created_at}`,
    text: cleanText(c.body ?? ""),
  }));
  if (isPullRequest) {
    const items = await fetchPullItems(octokit, job);
    const place = job.trigger.commentKind === "review_comment" ? triggerPlace(job, items) : undefined;
    const top = place && job.trigger.commentId !== undefined ? threadTop({ id: job.trigger.commentId, in_reply_to_id: place.inReplyToId }) : undefined;
    if (place) sections.push(placeSection(place));
    if (top !== undefined) sections.push(...(await rendered(threadComments(items, job, top, triggerTime), writers)));
    timeline.push(...pullTimeline(items, job, triggerTime, top));
  }
  timeline.sort((a, b) => a.at - b.at);
  return [...sections, ...newestWithin(await rendered(timeline, writers), MAX_CONTEXT_CHARS - size(sections))];
}

/** Capped, and marked third-party unless the author can write (no author: a bot's, always third-party). */
async function rendered(items: Dated[], writers: ReturnType<typeof writersOf>): Promise<ContextSection[]> {
  const out: ContextSection[] = [];
  for (const item of items) {
    const text = capMiddle(item.text, MAX_COMMENT_CHARS, "of this comment");
    out.push({ source: item.source, text, thirdParty: item.author === "" || !(await writers.canWrite(item.author)) });
  }
  return out;
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, 1000);

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
