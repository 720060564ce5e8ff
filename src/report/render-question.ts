/**
 * crewbot's question comment (`ask_user`): it mentions the requester, shows the question and its
 * options as a task list, and says how to answer. Line 2 is a hidden marker naming the job, so a
 * tick on it finds the waiting job; option lines are exactly `- [ ] <option>`, so a tick is read
 * back without guessing.
 */
import { safeBlock, safeInline } from "../text/github-markdown.js";

export const questionMarker = (jobId: string) => `<!-- crewbot:question:${jobId} -->`;
export const QUESTION_MARKER = /^<!-- crewbot:question:([A-Za-z0-9_-]{1,64}) -->$/;

/** An option's line as posted (the model's text made safe, one line). */
export const optionLine = (option: string, ticked = false) => `- [${ticked ? "x" : " "}] ${safeInline(option, 200)}`;

export interface QuestionView {
  jobId: string;
  asker: string;
  agent: string;
  question: string;
  options: string[];
  expiresAt: number;
}

export function renderQuestion(q: QuestionView): string {
  const quoted = safeBlock(q.question.trim()).split("\n").map((line) => (line ? `> ${line}` : ">")).join("\n");
  const how = q.options.length > 0 ? "Tick one option, or reply `/answer <your answer>`." : "Reply `/answer <your answer>`.";
  const until = new Date(q.expiresAt).toISOString().replace(/\.\d{3}Z$/, "Z");
  return [
    `@${q.asker}, the ${safeInline(q.agent, 40)} has a question before it goes on:`,
    questionMarker(q.jobId),
    "",
    quoted,
    ...(q.options.length > 0 ? ["", ...q.options.map((o) => optionLine(o))] : []),
    "",
    `${how} The job waits until ${until}; \`/crewbot cancel\` ends it.`,
  ].join("\n");
}

/** The comment once answered: no boxes left to tick, the answer said. */
export function renderAnswered(q: QuestionView, answer: { by: string; text: string; option?: number }): string {
  const quoted = safeBlock(q.question.trim()).split("\n").map((line) => (line ? `> ${line}` : ">")).join("\n");
  const options = q.options.map((o, i) => `- ${i + 1 === answer.option ? "✅" : "▫️"} ${safeInline(o, 200)}`);
  const said = answer.option !== undefined ? `option ${answer.option}` : safeInline(answer.text, 300);
  return [
    `Answered by @${safeInline(answer.by, 60)}: ${said}. The job goes on.`,
    questionMarker(q.jobId),
    "",
    quoted,
    ...(options.length > 0 ? ["", ...options] : []),
  ].join("\n");
}
