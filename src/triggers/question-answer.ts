/**
 * Answers to crewbot's question comment: a tick of exactly one option box on crewbot's own
 * question comment (`issue_comment.edited`), or a `/answer <text>` comment. Pure; the caller
 * checks the answerer's permission and whether the job still waits (the queue takes one answer).
 */
import { QUESTION_MARKER } from "../report/render-question.js";
import type { CommentEditedPayload } from "../plan/approval.js";

export type TickAnswer =
  | { answered: true; jobId: string; option: number; by: string; commentId: number }
  | { answered: false; reason: string };

const lines = (body: string) => body.replace(/\r\n?/g, "\n").trimEnd().split("\n");
const OPTION = /^- \[([ xX])\] (.*)$/;
const botLogin = (slug: string) => `${slug.trim().replace(/\[bot\]$/i, "")}[bot]`.toLowerCase();

/** Is this edit a tick of one option on crewbot's question comment? Which option (1-based)? */
export function detectTick(payload: CommentEditedPayload, appSlugOrBotLogin: string): TickAnswer {
  const no = (reason: string): TickAnswer => ({ answered: false, reason });
  if (payload.action !== undefined && payload.action !== "edited") return no("not an edit");
  if (payload.sender.type === "Bot" || /\[bot\]$/i.test(payload.sender.login)) return no("edited by a bot");
  const author = payload.comment.user;
  if (!author || author.type !== "Bot" || author.login.toLowerCase() !== botLogin(appSlugOrBotLogin)) return no("not crewbot's comment");
  if (!payload.installation) return no("no installation in the payload");
  const from = payload.changes?.body?.from;
  if (typeof from !== "string") return no("the body did not change");
  const before = lines(from);
  const after = lines(payload.comment.body);
  const jobId = QUESTION_MARKER.exec(after[1] ?? "")?.[1];
  if (!jobId || before[1] !== after[1]) return no("not a question comment");
  if (before.length !== after.length) return no("more than one box changed");
  const changed = after.flatMap((line, i) => (line === before[i] ? [] : [i]));
  if (changed.length !== 1) return no(changed.length === 0 ? "nothing changed" : "more than one box changed");
  const at = changed[0]!;
  const was = OPTION.exec(before[at]!);
  const now = OPTION.exec(after[at]!);
  if (!was || !now || was[1] !== " " || now[1]!.toLowerCase() !== "x" || was[2] !== now[2]) return no("not an option ticked");
  // Every option box was empty before: a second tick on a comment not yet rewritten answers nothing.
  const optionLines = before.map((line, i) => ({ i, m: OPTION.exec(line) })).filter((o) => o.m);
  if (optionLines.some((o) => o.m![1] !== " ")) return no("an option was already ticked");
  const option = optionLines.findIndex((o) => o.i === at) + 1;
  return { answered: true, jobId, option, by: payload.sender.login, commentId: payload.comment.id };
}
