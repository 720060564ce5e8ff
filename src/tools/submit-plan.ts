/**
 * `submit_plan` (the planner): hands the plan over as data, so nothing depends on the model's
 * headings. Calling it ends the planner; its markdown is the step's output (`{previous}`).
 */
import { z } from "zod";
import type { Tool } from "./types.js";

const line = (what: string) => z.string().trim().min(1, { error: `${what} must not be empty` });

const schema = z
  .object({
    goal: line("goal").describe("One or two sentences: what will be true when the work is done."),
    steps: z
      .array(line("a step"))
      .min(1, { error: "give at least one step" })
      .max(50, { error: "at most 50 steps" })
      .describe("The steps in order, each one concrete change a reviewer can check (what, in which file, how), one line each."),
    files: z.array(line("a path")).optional().describe("Paths relative to the repository root that the steps change or create."),
    risks: z.array(line("a risk")).optional().describe("What could go wrong or needs a human decision; empty when none."),
  })
  .strict();

export type PlanSubmission = z.infer<typeof schema>;

/** One line: the checklist shows only a step's own line. */
const flat = (text: string) => text.replace(/\s*\n\s*/g, " ").trim();

/** The plan in the planner's text form (DESIGN §3), which parsePlan reads back the same. */
export function renderPlanSubmission(plan: PlanSubmission): string {
  const parts = [`## Goal\n${plan.goal.trim()}`, `## Plan\n${plan.steps.map((s, i) => `${i + 1}. ${flat(s)}`).join("\n")}`];
  if (plan.files && plan.files.length > 0) parts.push(`## Files to Modify\n${plan.files.map((f) => `- \`${flat(f)}\``).join("\n")}`);
  parts.push(`## Risks\n${plan.risks && plan.risks.length > 0 ? plan.risks.map((r) => `- ${flat(r)}`).join("\n") : "None."}`);
  return parts.join("\n\n");
}

export const submitPlanTool: Tool<PlanSubmission> = {
  name: "submit_plan",
  description:
    "Hand over your finished plan. Call it once, when the plan is complete: it ends your turn and the plan goes to the worker and to the people following the issue (as a checklist). Text you write after it is ignored.",
  schema,
  readOnly: true,
  async run(input) {
    const plan: PlanSubmission = { ...input, steps: input.steps.map(flat) };
    const text = renderPlanSubmission(plan);
    return { output: `Plan submitted (${plan.steps.length} steps).`, isError: false, final: { tool: "submit_plan", value: plan, text } };
  },
};
