/** A plan as a GitHub task list, ticked by the worker's `[DONE:n]` markers (DESIGN.md §2). */
import type { PlanStep } from "./types.js";

/**
 * One line, safe as the text of a task-list item: newlines become spaces, and a leading `#`,
 * `>`, checkbox or list marker is escaped so the item stays one plain item. `<!--` is escaped
 * so a step cannot open an HTML comment that hides the rest of the comment (or fakes a marker).
 */
export function taskText(text: string): string {
  let t = text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join(" ");
  t = t.replace(/<!--/g, "&lt;!--");
  const ordered = /^(\d{1,9})[.)](\s|$)/.exec(t);
  // A backslash escapes punctuation only, so `1. x` becomes `1\. x`.
  if (ordered) t = `${ordered[1]}\\${t.slice(ordered[1]!.length)}`;
  else if (/^(#|>|\[[ xX]?\]|[-+*](\s|$))/.test(t)) t = `\\${t}`;
  return t;
}

/** `- [ ] text` / `- [x] text` lines, one per step, in order, joined with `\n`. */
export function formatTaskList(steps: readonly PlanStep[], done: ReadonlySet<number>): string {
  return steps.map((step) => `- [${done.has(step.n) ? "x" : " "}] ${taskText(step.text)}`).join("\n");
}
