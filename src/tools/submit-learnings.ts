/**
 * `submit_learnings` (the learner): hands over one short rule per candidate, keyed by the
 * candidate's key. The words are data: crewbot checks them, adds each candidate's thread links
 * itself and shows the result for human review in the learnings pull request.
 */
import { z } from "zod";
import type { Tool } from "./types.js";

const schema = z
  .object({
    learnings: z
      .array(
        z
          .object({
            candidate: z.string().trim().min(1, { error: "candidate must not be empty" }).max(200, { error: "candidate: at most 200 characters" }).describe("The candidate's key, exactly as the context gives it."),
            text: z
              .string()
              .trim()
              .min(1, { error: "text must not be empty" })
              .max(400, { error: "text: at most 400 characters" })
              .describe("The learning in one plain sentence for a reviewer: where it applies and what to do (\"In `src/db/**`, raw SQL strings are intended: don't flag them\"). No links, no issue numbers, no mentions: crewbot adds the sources."),
          })
          .strict(),
      )
      .max(50, { error: "at most 50 learnings" })
      .describe("One entry per candidate worth a rule; leave out a candidate that teaches nothing general."),
  })
  .strict();

export type LearningsSubmission = z.infer<typeof schema>;

export const submitLearningsTool: Tool<LearningsSubmission> = {
  name: "submit_learnings",
  description: "Hand over the learnings, one per candidate. Call it once, when you are done: it ends your turn. Text you write after it is ignored.",
  schema,
  readOnly: true,
  async run(input) {
    const value: LearningsSubmission = { learnings: input.learnings.map((l) => ({ ...l })) };
    const text = value.learnings.map((l) => `- ${l.candidate}: ${l.text}`).join("\n") || "(no learnings)";
    return { output: "Learnings submitted.", isError: false, final: { tool: "submit_learnings", value, text } };
  },
};
