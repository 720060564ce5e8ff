/**
 * `complete_step` (the worker, when its task has a numbered plan): reports one plan step
 * finished. The job ticks it and — in `/implement` — commits that step's changes before this
 * result goes back to the model, so the next step's work lands in the next commit.
 */
import { z } from "zod";
import { ToolError, type Tool } from "./types.js";

const schema = z
  .object({
    step: z.number().int().min(1).describe("The plan's number of the step you have just finished."),
    note: z.string().optional().describe("Anything a reviewer should know about this step (optional, one or two sentences)."),
  })
  .strict();

export type CompleteStepInput = z.infer<typeof schema>;

export const completeStepTool: Tool<CompleteStepInput> = {
  name: "complete_step",
  description:
    "Report that plan step `step` is finished, right after its changes are made and checked, before you start the next step. crewbot ticks the step and commits its changes. Call it once per step, only for steps really done.",
  schema,
  // It commits: never run beside a write in the same batch, and always in the model's order.
  readOnly: false,
  async run(input, ctx) {
    if (!ctx.completeStep) throw new ToolError("This task has no numbered plan: there are no steps to complete.");
    const note = input.note?.trim() || undefined;
    return { output: await ctx.completeStep(input.step, note), isError: false };
  },
};
