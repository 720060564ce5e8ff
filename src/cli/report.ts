import type { BudgetName, StopReason } from "../agent/events.js";
import type { Usage } from "../agent/pricing.js";
import { parseDoneMarkers } from "../plan/parse-done.js";
import { parseReview } from "../review/parse-findings.js";
import { parsePlan } from "../plan/parse-plan.js";
import type { ChainResult } from "../chain/run-chain.js";
import { formatTaskList } from "../plan/task-list.js";
import type { ParsedPlan } from "../plan/types.js";
import type { ParsedReview } from "../review/types.js";
import type { Mode } from "../tools/types.js";
import { formatFigures } from "../report/format.js";

/**
 * The JSON's name for a mode: `plan` for read-only, as the `--json` output has always said (scripts
 * read it); inside crewbot the mode is `read-only`.
 */
export type ReportMode = "plan" | "write";
export const reportMode = (mode: Mode): ReportMode => (mode === "write" ? "write" : "plan");

export interface RunReport {
  ok: boolean;
  error?: string;
  jobId: string;
  chain: string;
  mode: ReportMode;
  request: string;
  stopReason: StopReason;
  budget?: BudgetName;
  durationMs: number;
  usage: Usage;
  costUsd: number;
  costEstimate: boolean;
  steps: Array<{ agent: string; model: string; mode: ReportMode; stopReason: StopReason; turns: number; usage: Usage; costUsd: number }>;
  /** The last planner's plan, with the steps the workers reported done. */
  plan?: ParsedPlan & { done: number[] };
  review?: ParsedReview;
  diff?: string;
  patchFile?: string;
  artifactsDir: string;
  /** The last step's text, as the agent wrote it. */
  output: string;
}

/** Plan and review as the parsers read them from the steps' texts. */
export function summariseOutputs(result: ChainResult): Pick<RunReport, "plan" | "review"> {
  const planner = result.steps.filter((s) => s.role === "planner" && s.stopReason === "done").at(-1);
  const reviewer = result.steps.filter((s) => s.role === "reviewer" && s.stopReason === "done").at(-1);
  const out: Pick<RunReport, "plan" | "review"> = {};
  if (planner) {
    const plan = parsePlan(planner.text);
    const done = new Set<number>();
    for (const step of result.steps.filter((s) => s.role === "worker")) {
      for (const n of parseDoneMarkers(step.text, plan.steps.length)) done.add(n);
    }
    out.plan = { ...plan, done: [...done].sort((a, b) => a - b) };
  }
  if (reviewer) out.review = parseReview(reviewer.text);
  return out;
}

export function renderJson(report: RunReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** Human output: the plan as a task list, the review's findings, or the diff, then one status line. */
export function renderText(report: RunReport): string {
  const parts: string[] = [];
  if (report.plan && report.plan.steps.length > 0) {
    if (report.plan.goal) parts.push(`## Goal\n${report.plan.goal}`);
    parts.push(`## Plan\n${formatTaskList(report.plan.steps, new Set(report.plan.done))}`);
    if (report.plan.risks) parts.push(`## Risks\n${report.plan.risks}`);
  }
  if (report.review) parts.push(renderReview(report.review));
  if (report.diff !== undefined) {
    parts.push(report.diff === "" ? "No files changed." : `## Diff\n${report.diff.trimEnd()}\n\n(saved to ${report.patchFile})`);
  }
  if (parts.length === 0 && report.output) parts.push(report.output.trim());
  parts.push(statusLine(report));
  return `${parts.join("\n\n")}\n`;
}

function renderReview(review: ParsedReview): string {
  const lines = ["## Review"];
  for (const f of review.findings) {
    const where = f.endLine ? `${f.path}:${f.line}-${f.endLine}` : `${f.path}:${f.line}`;
    lines.push(`- [${f.severity}] ${where} - ${f.text}`);
  }
  if (review.findings.length === 0) lines.push("No findings.");
  if (review.summary) lines.push("", review.summary);
  return lines.join("\n");
}

export function statusLine(report: RunReport): string {
  const figures = formatFigures({ elapsedMs: report.durationMs, usage: report.usage, costUsd: report.costUsd, estimate: report.costEstimate });
  if (report.ok) return `✅ Done in ${figures}`;
  if (report.stopReason === "budget") return `⏸ Stopped: ${report.error} · ${figures}`;
  if (report.stopReason === "aborted") return `⏹ Cancelled · ${figures}`;
  return `❌ Failed: ${report.error} · ${figures}`;
}
