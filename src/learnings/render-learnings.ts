/**
 * What crewbot writes about learnings: the learnings pull request's body and commit message, and
 * the `/crewbot learnings` list. Every learning's text came from the repository's file or from
 * the model (checked): both are made safe to post (no ping, no HTML). Pure.
 */
import { safeInline } from "../text/github-markdown.js";
import type { Learning, LearningsFile } from "./learnings-file.js";
import type { StaleLearning } from "./proposal.js";
import { LEARNINGS_BRANCH, LEARNINGS_PATH } from "./types.js";

/** The hidden mark of crewbot's learnings pull request body. */
export const LEARNINGS_PR_MARKER = "<!-- crewbot:learnings-pr -->";

const MAX_TEXT = 1000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const item = (l: Pick<Learning, "text">) => safeInline(l.text, MAX_TEXT);
/** A table cell: one line, safe, its pipes escaped. */
const cell = (text: string, max = 300) => safeInline(text, max).replace(/\|/g, "\\|");

export interface PullBodyInput {
  defaultBranch: string;
  /** The default branch's file, and the file this pull request proposes. */
  onDefault: LearningsFile;
  proposed: LearningsFile;
  /** The merged learnings no review used for `staleDays`, as found now. */
  stale: readonly StaleLearning[];
  staleDays: number;
}

function removalReason(id: string, stale: readonly StaleLearning[], staleDays: number): string {
  const found = stale.find((s) => s.learning.id === id);
  if (!found) return "removed on this branch";
  if (found.lastUsed !== undefined) return `no review used it since ${day(found.lastUsed)}, more than ${staleDays} days ago`;
  return `no review used it in the ${staleDays} days since it was merged`;
}

/** What the pull request changes against the default branch: the additions with their sources, the removals and why, how to edit or veto. */
export function renderLearningsPullBody(input: PullBodyInput): string {
  const defaultIds = new Set(input.onDefault.learnings.map((l) => l.id));
  const proposedIds = new Set(input.proposed.learnings.map((l) => l.id));
  const added = input.proposed.learnings.filter((l) => !defaultIds.has(l.id));
  const removed = input.onDefault.learnings.filter((l) => !proposedIds.has(l.id));
  const lines = [
    `crewbot proposes these changes to \`${LEARNINGS_PATH}\`: what this team taught crewbot in its review threads. Nothing here is used until a person merges this pull request: crewbot's reviewer and planner read the file from \`${safeInline(input.defaultBranch, 100)}\` only. This pull request changes that file and nothing else.`,
    "",
    `### Added (${added.length})`,
    ...(added.length > 0 ? added.map((l) => `- ${item(l)}`) : ["- nothing"]),
    "",
    `### Proposed for removal (${removed.length})`,
    ...(removed.length > 0 ? removed.map((l) => `- ${item(l)} — ${removalReason(l.id, input.stale, input.staleDays)}`) : ["- nothing"]),
    "",
    "### How to edit or veto",
    `- Edit a learning's words on this branch (\`${LEARNINGS_BRANCH}\`) like any change: crewbot keeps your edits when it updates this pull request. Keep the hidden \`<!-- crewbot:learning:… -->\` at the end of a line so its uses stay counted.`,
    "- Veto a learning by deleting its line here; keep one proposed for removal by putting its line back. crewbot does not propose a candidate again once it was proposed.",
    "- Close this pull request to refuse all of it. Merge it to let crewbot use it; later, edit or delete a merged learning in the file on the default branch.",
    "",
    LEARNINGS_PR_MARKER,
  ];
  return lines.join("\n");
}

/** The commit's message: what this proposal added and proposes to remove. */
export function learningsCommitMessage(added: number, removed: number): string {
  const parts = [`${added} added`, ...(removed > 0 ? [`${removed} proposed for removal`] : [])];
  return `Propose learnings: ${parts.join(", ")}\n\nWhat writers taught crewbot in its review threads, for the team to review in this pull request. Only ${LEARNINGS_PATH} changes.\n`;
}

export interface LearningsListInput {
  defaultBranch: string;
  learnings: readonly Learning[];
  /** Uses in the last 30 days, per learning id. */
  usage: ReadonlyMap<string, { reviews: number }>;
  lastUses: ReadonlyMap<string, number>;
  pull?: { number: number; url: string };
}

/** At most this many learnings are listed; the rest are counted. */
export const MAX_LISTED = 100;

/** `/crewbot learnings`: each merged learning with the reviews it shaped in 30 days and its last use; the open learnings pull request. */
export function renderLearningsList(input: LearningsListInput): string {
  const branch = safeInline(input.defaultBranch, 100);
  const pull = input.pull ? `The learnings pull request waiting for review: #${input.pull.number}.` : "No learnings pull request is open.";
  if (input.learnings.length === 0) return [`No learnings are merged on \`${branch}\` yet (\`${LEARNINGS_PATH}\`). \`/crewbot learn\` proposes what crewbot gathered so far.`, "", pull].join("\n");
  const rows = input.learnings.slice(0, MAX_LISTED).map((l) => {
    const reviews = input.usage.get(l.id)?.reviews ?? 0;
    const last = input.lastUses.get(l.id);
    return `| ${cell(l.text)} | ${reviews} | ${last === undefined ? "never" : day(last)} |`;
  });
  const more = input.learnings.length > MAX_LISTED ? [`… and ${input.learnings.length - MAX_LISTED} more in the file.`] : [];
  return [
    `**${input.learnings.length} learning${input.learnings.length === 1 ? "" : "s"}** merged on \`${branch}\` (\`${LEARNINGS_PATH}\`):`,
    "",
    "| Learning | Reviews it shaped (30 days) | Last used |",
    "|---|---|---|",
    ...rows,
    ...more,
    "",
    pull,
  ].join("\n");
}
