/**
 * The text of crewbot's comments (DESIGN.md §2): pure functions of their inputs, so tables of
 * states can pin exactly what users see.
 */
import { formatTaskList, taskText } from "../plan/task-list.js";
import { COMMAND_KINDS, jobCommand, type CommandKind, type HelpRow } from "../queue/job-kinds.js";
import { OWN_COMMAND_NAMES, OWN_COMMANDS } from "../queue/own-commands.js";
import { formatDuration, formatFigures } from "./format.js";
import { renderCommands } from "./render-commands.js";
import { codeSpan, COMMENT_LIMIT, cutMiddle, GITHUB_BODY_LIMIT, neutraliseMentions, safeBlock, safeInline, safeLine } from "../text/github-markdown.js";
import { APPROVE_LINE_UNCHECKED } from "../plan/approval.js";
import { jobMarker, type ProgressState, type Terminal } from "./types.js";

/** `<CREWBOT_PUBLIC_URL>/jobs/<jobId>`, whatever slashes the base URL ends with. */
export function transcriptUrl(publicUrl: string, jobId: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/jobs/${encodeURIComponent(jobId)}`;
}

const MAX_NOTES = 10;
/** What a cut section keeps at least, so its start and end still show. */
const MIN_KEEP = 400;

/** `✅ Done`, `❌ Failed: <reason>`, `⏹ Cancelled…`, `⏸ Stopped: <budget>`. */
export function headline(terminal: Terminal): string {
  switch (terminal.kind) {
    case "done":
      return "✅ Done";
    case "failed":
      return `❌ Failed: ${safeInline(terminal.reason) || "unknown error"}`;
    case "cancelled": {
      const by = terminal.by ? ` by ${neutraliseMentions(`@${safeInline(terminal.by, 60)}`)}` : "";
      return `⏹ Cancelled${by}${terminal.reason ? `: ${safeInline(terminal.reason)}` : ""}`;
    }
    case "stopped":
      return `⏸ Stopped: ${safeInline(terminal.budget) || "budget reached"}`;
  }
}

/** The first line of the progress comment. */
export function statusLine(state: ProgressState): string {
  if (state.terminal) return `${headline(state.terminal)} · ${formatFigures(state)}`;
  if (state.queuedBehind) return `⏳ Queued behind job ${safeInline(state.queuedBehind, 80)}`;
  if (state.waitingFor) return `⏳ Waiting for @${safeInline(state.waitingFor.login, 60)} · ${formatFigures(state)}`;
  if (!state.agent) return `⏳ Starting · ${formatDuration(state.elapsedMs)}`;
  const step = state.step && state.step.index >= 1 ? ` (step ${state.step.index}/${state.step.total})` : "";
  const parts = [`⏳ ${state.modelWait ? "Waiting for the model" : "Working"} · ${safeInline(state.agent, 60)}${step}`];
  if (state.turn > 0) parts.push(`turn ${state.turn}`);
  parts.push(`${state.toolCalls} tool call${state.toolCalls === 1 ? "" : "s"}`);
  return `${parts.join(" · ")} · ${formatFigures(state)}`;
}

/** Link destinations come from GitHub and us; still, nothing in them may end the link early. */
const href = (url: string) => url.replace(/[\s()<>]/g, (ch) => encodeURIComponent(ch));

function linksLine(state: ProgressState): string | undefined {
  const { transcript, branch, pr } = state.links;
  const parts: string[] = [];
  if (pr) parts.push(`Pull request [#${pr.number}](${href(pr.url)})`);
  if (branch) parts.push(`Branch [${codeSpan(branch.name, 120)}](${href(branch.url)})`);
  if (transcript) parts.push(`[Transcript](${href(transcript)})`);
  return parts.length > 0 ? parts.join(" · ") : undefined;
}

interface Section {
  title?: string;
  content: string;
  /** Lower is cut first when the comment is too long. */
  rank: number;
}

function sections(state: ProgressState): Section[] {
  const out: Section[] = [];
  const plan = state.plan;
  if (plan?.goal?.trim()) out.push({ title: "## Goal", content: safeBlock(plan.goal.trim()), rank: 2 });
  if (plan && plan.steps.length > 0) {
    const commits = plan.commits ?? {};
    const list = formatTaskList(plan.steps, new Set(plan.done))
      .split("\n")
      .map((line, i) => {
        const commit = commits[plan.steps[i]!.n];
        return commit ? `${safeLine(line)} ✅ [${commit.sha.slice(0, 7)}](${href(commit.url)})` : safeLine(line);
      })
      .join("\n");
    out.push({ title: "## Plan", content: list, rank: 3 });
  }
  if (state.answer?.trim()) out.push({ content: safeBlock(state.answer.trim()), rank: 3 });
  for (const section of renderCommands(state.commands ?? [])) out.push({ content: section, rank: 2 });
  if (plan?.risks?.trim()) out.push({ title: "## Risks", content: safeBlock(plan.risks.trim()), rank: 0 });
  const notes = [...new Set(state.notes ?? [])].filter((n) => n.trim() !== "");
  if (notes.length > 0) {
    const shown = notes.slice(0, MAX_NOTES).map((n) => `- ${safeLine(taskText(safeCap(n, 500)))}`);
    if (notes.length > MAX_NOTES) shown.push(`- … and ${notes.length - MAX_NOTES} more (see the transcript)`);
    out.push({ title: "**Notes**", content: shown.join("\n"), rank: 1 });
  }
  return out;
}

export const TOO_LONG_TO_APPROVE =
  "_This plan is too long for one comment, so it cannot be approved by ticking a box; comment `/implement` with what to do instead._";

const safeCap = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const cutNote = (chars: number) =>
  `_… ${chars.toLocaleString("en-US")} characters cut here: GitHub limits a comment to ${GITHUB_BODY_LIMIT.toLocaleString("en-US")} characters …_`;

const sectionText = (s: Section) => (s.title ? `${s.title}\n${s.content}` : s.content);

/**
 * The progress comment: status line, the hidden job marker, the latest tool (while running),
 * links, then goal, plan (or an `/ask` answer), risks and notes; a finished approvable /plan ends with the approval box.
 * Over the size limit, risks are cut first, then notes, goal and the plan — each from its middle.
 */
export function renderProgress(state: ProgressState): string {
  const head = [statusLine(state), jobMarker(state.jobId)].join("\n");
  const before: string[] = [];
  if (!state.terminal && !state.queuedBehind && state.lastTool) before.push(`Latest: ${codeSpan(state.lastTool)}`);
  if (!state.terminal && state.modelWait) {
    const wait = state.modelWait;
    before.push(`Waiting for the model: ${codeSpan(safeInline(wait.reason, 200))}; try ${wait.attempt + 1} in ${formatDuration(wait.waitMs)}`);
  }
  if (state.spendNotice) before.push(safeLine(state.spendNotice));
  if (state.startedBy) before.push(`Started by @${safeInline(state.startedBy.login, 60)}, who added the label ${codeSpan(safeInline(state.startedBy.label, 60))}.`);
  const links = linksLine(state);
  if (links) before.push(links);
  const after = state.approvable && state.terminal?.kind === "done" ? [APPROVE_LINE_UNCHECKED] : [];
  const body = sections(state);

  const join = () => [head, ...before, ...body.map(sectionText), ...after].join("\n\n");
  let excess = join().length - COMMENT_LIMIT;
  for (const section of [...body].sort((a, b) => a.rank - b.rank)) {
    if (excess <= 0) break;
    const max = Math.max(MIN_KEEP, section.content.length - excess);
    if (max >= section.content.length) continue;
    const was = section.content.length;
    section.content = cutMiddle(section.content, max, cutNote);
    excess -= was - section.content.length;
    // A cut plan cannot be approved exactly as planned: say so instead of a box that would do nothing.
    if (section.title === "## Plan" && after.length > 0) after.splice(0, 1, TOO_LONG_TO_APPROVE);
  }
  return join();
}

export interface HelpOptions {
  /** Commands turned off by the repository's config are listed as such. */
  commands?: Partial<Record<CommandKind, boolean>>;
  autoReview?: boolean;
}

/** The `/crewbot help` text (also the answer to an unknown `/crewbot` subcommand). */
export function renderHelp(options: HelpOptions = {}): string {
  const off = (name: CommandKind) => (options.commands?.[name] === false ? " _(turned off in this repository)_" : "");
  const autoReview =
    options.autoReview === false
      ? "Automatic reviews of pull requests are turned off in this repository."
      : "Pull requests are also reviewed automatically when opened, reopened, marked ready or pushed to; those reviews report in the `crewbot/review` check.";
  const row = (r: HelpRow, note = "") => `| \`${r.usage}\` | ${r.where} | ${r.what}${note} |`;
  const jobRows = COMMAND_KINDS.flatMap((kind) => jobCommand(kind).help.map((r) => row(r, off(kind))));
  const ownRows = OWN_COMMAND_NAMES.flatMap((word) => OWN_COMMANDS[word].help.map((r) => row(r)));
  return [
    "**crewbot** runs a crew of agents (scout, planner, worker, reviewer) on this repository. Write a command at the start of a comment:",
    "",
    "| Command | Where | What happens |",
    "|---|---|---|",
    ...jobRows,
    ...ownRows,
    "",
    "Instead of the slash, a comment may start by mentioning this app: `@<app> plan …` is `/plan …`, and any other text after the mention is a question, `/ask <text>` (unless the repository turned mentions off).",
    "",
    "Only people with write, maintain or admin permission on this repository can start or cancel a job. One job runs at a time per issue or pull request; a second command waits behind the first.",
    "",
    `${autoReview} Settings live in \`.github/crewbot.yml\`.`,
  ].join("\n");
}

/** The one reply to someone without write access; it pings nobody (they follow the thread anyway). */
export function renderNotAllowed(login: string): string {
  return `Sorry ${neutraliseMentions(`@${safeInline(login, 60)}`)}, only people with write, maintain or admin permission on this repository can run crewbot commands. Nothing was started.`;
}
