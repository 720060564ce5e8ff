/** A planner's result, whichever way it came: `submit_plan` or text the parser reads. A tool call wins over text (DESIGN §3). */
import type { StepOutput } from "../tools/types.js";
import { stripEmphasis } from "../text/markdown.js";
import type { ParsedPlan } from "./types.js";
import type { PlanSubmission } from "../tools/submit-plan.js";
import { parsePlan } from "./parse-plan.js";

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
