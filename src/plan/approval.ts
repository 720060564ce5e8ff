/**
 * Plan approval by checkbox (DESIGN.md §2): a `/plan` result ends with
 * `- [ ] Approve this plan and implement it`; ticking that one box on crewbot's own comment is
 * the approval. Pure functions of the webhook payload, so tables can pin every edit that must
 * start nothing. The caller checks the sender's permission (write, maintain or admin) — the one
 * thing that needs GitHub — and dedupes approvals of one plan job.
 */
import { formatTaskList } from "./task-list.js";
import type { PlanStep } from "./types.js";
import { neutraliseMentions, safeInline, safeLine, splitCodeSpans } from "../text/github-markdown.js";

/** The line GitHub renders as the approval checkbox at the end of a /plan result. */
export const APPROVE_LINE_UNCHECKED = "- [ ] Approve this plan and implement it";
export const APPROVE_LINE_CHECKED = "- [x] Approve this plan and implement it";

/** The parts of an `issue_comment.edited` payload the approval reads. */
export interface CommentEditedPayload {
  action?: string;
  changes?: { body?: { from: string } };
  comment: {
    id: number;
    body: string;
    user: { login: string; type: string } | null;
    performed_via_github_app?: { slug?: string | null } | null;
  };
  issue?: { number: number; locked?: boolean; pull_request?: unknown };
  installation?: { id: number };
  sender: { login: string; type: string };
}

export type Approval =
  | {
      approved: true;
      /** The `/plan` job whose comment was ticked (from its hidden marker). */
      jobId: string;
      /** The plan as the comment shows it, 1-based and in order: what the approver saw. */
      plan: PlanStep[];
      /** Who ticked the box; the caller checks their permission. */
      by: string;
      commentId: number;
    }
  | { approved: false; reason: ApprovalRejection };

export type ApprovalRejection =
  | "not an edit"
  | "edited by a bot"
  | "not crewbot's comment"
  | "no installation in the payload"
  | "the conversation is locked"
  | "the body did not change"
  | "no job marker on the second line"
  | "the approval box was not ticked"
  | "more than the approval box changed"
  | "not a finished plan"
  | "no plan in the comment"
  | "more than one plan in the comment"
  | "the plan was cut or edited"
  | "a plan step is not as crewbot wrote it";

/** Line 2 of every progress comment; job ids are 16 base32 characters, other ids are tolerated. */
const MARKER = /^<!-- crewbot:job:([A-Za-z0-9_-]{1,64}) -->$/;
const PLAN_HEADER = "## Plan";
/** What may follow the plan's list after a blank line (see renderProgress). */
const AFTER_PLAN = new Set(["## Risks", "**Notes**", APPROVE_LINE_UNCHECKED, APPROVE_LINE_CHECKED]);
const STEP_LINE = /^- \[[ xX]\] (.+)$/;
const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const ZWSP = "\u200B";

/** Line endings GitHub may change on an edit (a web edit stores CRLF), and trailing blank space. */
const lines = (body: string) => body.replace(/\r\n?/g, "\n").trimEnd().split("\n");

/** `crewbot`, `crewbot[bot]` → `crewbot[bot]`, lower-cased (logins are case-insensitive). */
const botLogin = (appSlugOrBotLogin: string) => `${appSlugOrBotLogin.trim().replace(/\[bot\]$/i, "")}[bot]`.toLowerCase();

/**
 * Is this edit the approval of a plan? Only when the comment is crewbot's own (its bot user
 * wrote it), the sender is not a bot, and the edit ticked the box on the comment's LAST line and
 * changed nothing else (line endings and trailing blank space aside). The plan is read back from
 * the comment, and only when every step line is exactly what crewbot renders for it.
 */
export function detectApproval(payload: CommentEditedPayload, appSlugOrBotLogin: string): Approval {
  const no = (reason: ApprovalRejection): Approval => ({ approved: false, reason });
  if (payload.action !== undefined && payload.action !== "edited") return no("not an edit");
  // Our own edits (renderApproved, progress) and other bots never approve.
  if (payload.sender.type === "Bot" || /\[bot\]$/i.test(payload.sender.login)) return no("edited by a bot");
  const author = payload.comment.user;
  // The bot user is the author; `performed_via_github_app` alone is not enough, as a person's
  // user-to-server token for the app sets it on comments that person wrote.
  if (!author || author.type !== "Bot" || author.login.toLowerCase() !== botLogin(appSlugOrBotLogin)) {
    return no("not crewbot's comment");
  }
  const via = payload.comment.performed_via_github_app?.slug;
  if (via && `${via}[bot]`.toLowerCase() !== botLogin(appSlugOrBotLogin)) return no("not crewbot's comment");
  if (!payload.installation) return no("no installation in the payload");
  if (payload.issue?.locked) return no("the conversation is locked");

  const from = payload.changes?.body?.from;
  if (typeof from !== "string") return no("the body did not change");
  const before = lines(from);
  const after = lines(payload.comment.body);

  const jobId = MARKER.exec(after[1] ?? "")?.[1];
  if (!jobId) return no("no job marker on the second line");
  if (before.at(-1) !== APPROVE_LINE_UNCHECKED || after.at(-1) !== APPROVE_LINE_CHECKED) {
    return no("the approval box was not ticked");
  }
  if (before.length !== after.length || before.some((line, i) => i < before.length - 1 && line !== after[i])) {
    return no("more than the approval box changed");
  }
  if (!after[0]!.startsWith("✅ Done")) return no("not a finished plan");

  const plan = planFromLines(after.slice(0, -1));
  if (typeof plan === "string") return no(plan);
  return { approved: true, jobId, plan, by: payload.sender.login, commentId: payload.comment.id };
}

/** Which lines are fence markers or inside a fence (the goal and risks may hold fences). */
function fenced(body: readonly string[]): boolean[] {
  const out: boolean[] = [];
  let open: { char: string; len: number } | undefined;
  for (const line of body) {
    const m = FENCE.exec(line);
    if (open) {
      out.push(true);
      if (m && m[2]![0] === open.char && m[2]!.length >= open.len && m[3]!.trim() === "") open = undefined;
    } else if (m && !(m[2]![0] === "`" && m[3]!.includes("`"))) {
      out.push(true);
      open = { char: m[2]![0]!, len: m[2]!.length };
    } else out.push(false);
  }
  return out;
}

/**
 * The steps under the one `## Plan` header outside fences: the task lines up to the next blank
 * line, which must be followed by the next section crewbot renders (not a cut note, not text).
 */
function planFromLines(body: readonly string[]): PlanStep[] | ApprovalRejection {
  const inFence = fenced(body);
  const headers = body.flatMap((line, i) => (line === PLAN_HEADER && !inFence[i] && body[i - 1] === "" ? [i] : []));
  if (headers.length === 0) return "no plan in the comment";
  if (headers.length > 1) return "more than one plan in the comment";
  let end = headers[0]! + 1;
  while (end < body.length && body[end] !== "") end += 1;
  const stepLines = body.slice(headers[0]! + 1, end);
  // The approve line is not in `body`; the end of the body stands for it.
  const next = body.slice(end).find((line) => line !== "");
  if (stepLines.length === 0 || (next !== undefined && !AFTER_PLAN.has(next))) return "the plan was cut or edited";
  const steps: PlanStep[] = [];
  for (const line of stepLines) {
    const text = STEP_LINE.exec(line)?.[1];
    if (text === undefined) return "the plan was cut or edited";
    const step = { n: steps.length + 1, text: stepText(text) };
    // Only text crewbot itself renders this way: a hand-edited step could hide instructions
    // (an HTML comment) from the person who approves it.
    if (safeLine(formatTaskList([step], new Set())) !== `- [ ] ${text}`) return "a plan step is not as crewbot wrote it";
    steps.push(step);
  }
  return steps;
}

/**
 * A rendered step's text back as the planner wrote it: undoes safeLine (mention breaks, `&lt;`
 * outside code, broken `<!--` inside code) and taskText (`&lt;!--`, the escaped leading marker).
 * Where the rendering is not one-to-one (`&#64;` and `@` both render as a broken mention, `&lt;b`
 * and `<b` both as `&lt;b`, `\# x` and `# x` both as `\# x`) the plainer text is chosen; both
 * show the same on GitHub.
 */
export function stepText(rendered: string): string {
  let t = rendered.replaceAll(`@${ZWSP}`, "@");
  t = splitCodeSpans(t)
    .map((part) =>
      part.code
        ? part.text.replaceAll(`<!-${ZWSP}-`, "<!--").replaceAll("&lt;!--", "<!--")
        : part.text.replace(/&lt;(?=[A-Za-z!?/])/g, "<"),
    )
    .join("");
  const ordered = /^(\d{1,9})\\([.)](\s|$))/.exec(t);
  if (ordered) return `${ordered[1]}${t.slice(ordered[1]!.length + 1)}`;
  if (/^\\(#|>|\[[ xX]?\]|[-+*](\s|$))/.test(t)) return t.slice(1);
  return t;
}

/** The first line of the note renderApproved adds; a second approval replaces it. */
const APPROVED_PREFIX = "✅ Approved by ";

/**
 * The ticked comment after an approval: the box stays ticked and the marker where it was, and a
 * last line says who approved and which job implements the plan. The box is then no longer the
 * last line, so un-ticking and ticking it again starts nothing.
 */
export function renderApproved(body: string, by: string, newJobId: string, transcriptUrl?: string): string {
  const out = lines(body);
  if (out.at(-1)?.startsWith(APPROVED_PREFIX)) {
    out.pop();
    while (out.at(-1) === "") out.pop();
  }
  if (out.at(-1) === APPROVE_LINE_UNCHECKED) out[out.length - 1] = APPROVE_LINE_CHECKED;
  const job = transcriptUrl
    ? `[${safeInline(newJobId, 80)}](${transcriptUrl.replace(/[\s()<>]/g, (ch) => encodeURIComponent(ch))})`
    : safeInline(newJobId, 80);
  const who = neutraliseMentions(`@${safeInline(by, 60)}`);
  return [...out, "", `${APPROVED_PREFIX}${who} · implementing it in job ${job}`].join("\n");
}
