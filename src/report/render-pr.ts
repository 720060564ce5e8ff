import { formatTaskList } from "../plan/task-list.js";
import type { PlanStep } from "../plan/types.js";
import { formatFigures } from "./format.js";
import { safeBlock, safeLine, safeInline } from "../text/github-markdown.js";
import type { Usage } from "../agent/pricing.js";
import { renderCommands, type CommandSummary } from "./render-commands.js";

export interface PullRequestBody {
  issueNumber: number;
  plan: { goal?: string; steps: PlanStep[]; done: number[] };
  /** Lines worth a reviewer's attention (refused workflow changes, steps left undone). */
  notes: string[];
  /** Setup and check commands with their results. */
  commands?: CommandSummary[];
  usage: Usage;
  costUsd: number;
  estimate: boolean;
  elapsedMs: number;
  transcript?: string;
}

/** The draft pull request's body: closes the issue, the plan with its ticks, notes, and what it cost. */
export function renderPullRequestBody(input: PullRequestBody): string {
  const parts = [`Closes #${input.issueNumber}`];
  if (input.plan.goal?.trim()) parts.push(`## Goal\n${safeBlock(input.plan.goal.trim())}`);
  if (input.plan.steps.length > 0) {
    const list = formatTaskList(input.plan.steps, new Set(input.plan.done)).split("\n").map(safeLine).join("\n");
    parts.push(`## Plan\n${list}`);
  }
  parts.push(...renderCommands(input.commands ?? []));
  if (input.notes.length > 0) parts.push(`## Notes\n${input.notes.map((n) => `- ${safeInline(n, 500)}`).join("\n")}`);
  const transcript = input.transcript ? ` · [Transcript](${input.transcript})` : "";
  parts.push(`---\nMade by crewbot · ${formatFigures(input)}${transcript}`);
  return parts.join("\n\n");
}
