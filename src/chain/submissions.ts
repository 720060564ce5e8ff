/**
 * An agent's result, whichever way it came: through its result tool (submit_plan,
 * submit_review) or as text the parsers read. A tool call wins over text (DESIGN §3).
 */
import type { PlanSubmission } from "../tools/submit-plan.js";
import type { ReviewSubmission } from "../tools/submit-review.js";
import type { Submission } from "../tools/types.js";
import { stripEmphasis } from "../text/markdown.js";
import { parseReview } from "../review/parse-findings.js";
import { parsePlan } from "../plan/parse-plan.js";
import type { Finding, ParsedReview } from "../review/types.js";
import type { ParsedPlan } from "../plan/types.js";

/** What a finished step left: its final text and, when it called one, its result tool's hand-over. */
export interface StepOutput {
  text: string;
  submission?: Submission;
}

export function planOf(output: StepOutput): ParsedPlan {
  if (output.submission?.tool !== "submit_plan") return parsePlan(output.text);
  const value = output.submission.value as PlanSubmission;
  const plan: ParsedPlan = {
    goal: value.goal,
    steps: value.steps.map((text, i) => ({ n: i + 1, text: stripEmphasis(text).trim() })),
    filesToModify: [...new Set(value.files ?? [])],
  };
  if (value.risks && value.risks.length > 0) plan.risks = value.risks.map((r) => `- ${r}`).join("\n");
  return plan;
}

export function reviewOf(output: StepOutput): ParsedReview {
  if (output.submission?.tool !== "submit_review") return parseReview(output.text);
  const value = output.submission.value as ReviewSubmission;
  const findings = value.findings.map((f): Finding => {
    const finding: Finding = { path: f.path, line: f.line, severity: f.severity, text: f.body };
    if (f.endLine !== undefined) finding.endLine = f.endLine;
    if (f.suggestion !== undefined) finding.suggestion = f.suggestion;
    if (f.learning) finding.learning = f.learning;
    if (f.kind) finding.kind = f.kind;
    return finding;
  });
  const learnings = value.learnings?.map((l) => ({ id: l.id, suppressed: l.suppressed ?? 0 }));
  return { findings, summary: value.summary, notes: [], ...(learnings ? { learnings } : {}) };
}

/**
 * Why a finished step's output is not a result, for the agents whose output the job reads:
 * a planner's text with no plan, a reviewer's with neither findings nor a summary. Never a
 * silent empty success: the job fails with this, the text stays in the transcript.
 */
export function outputProblem(agent: string, output: StepOutput): string | undefined {
  if (agent === "planner" && planOf(output).steps.length === 0) {
    return 'the planner gave no plan: it did not call submit_plan, and its reply has no numbered list under a heading containing "plan"';
  }
  if (agent === "reviewer" && !output.submission) {
    const review = reviewOf(output);
    if (review.findings.length === 0 && (review.notes ?? []).length === 0 && review.summary.trim() === "") {
      return "the reviewer gave no review: it did not call submit_review, and its reply has no findings under a severity heading and no `## Summary`";
    }
  }
  return undefined;
}
