/**
 * `submit_summary` (the describer): hands a pull request's summary over as data — what and why, a
 * walkthrough, an effort estimate, risks and, when a flow across modules changed, a sequence
 * diagram given as participants and messages. crewbot renders the block itself (summary/), so the
 * model never writes the Mermaid text that has to parse.
 */
import { z } from "zod";
import type { Tool } from "./types.js";

const text = (what: string, max: number) =>
  z.string().trim().min(1, { error: `${what} must not be empty` }).max(max, { error: `${what}: at most ${max} characters` });

const message = z
  .object({
    from: text("from", 60).describe("The participant that sends: one of `participants`, spelt the same."),
    to: text("to", 60).describe("The participant that receives: one of `participants`, spelt the same."),
    text: text("a message's text", 120).describe("What is sent or called, a few words."),
    reply: z.boolean().optional().describe("true for an answer going back (drawn dashed)."),
  })
  .strict();

const diagram = z
  .object({
    participants: z.array(text("a participant", 60)).min(2, { error: "a diagram needs at least 2 participants" }).max(10, { error: "at most 10 participants" }).describe("The modules (files, services) the flow crosses, in the order they appear."),
    messages: z.array(message).min(1, { error: "a diagram needs at least one message" }).max(30, { error: "at most 30 messages" }),
  })
  .strict()
  .superRefine((d, ctx) => {
    const known = new Set(d.participants);
    d.messages.forEach((m, i) => {
      for (const end of [m.from, m.to]) {
        if (!known.has(end)) ctx.addIssue({ code: "custom", path: ["messages", i], message: `"${end}" is not one of the participants (${d.participants.join(", ")})` });
      }
    });
  });

const schema = z
  .object({
    what: text("what", 2000).describe("Two to five sentences: what the pull request does and why (from its commits, linked issues and diff)."),
    walkthrough: z
      .array(z.object({ files: text("files", 200).describe("A file, or a group of files (`src/report/*`)."), change: text("change", 400).describe("What changed there, one line.") }).strict())
      .min(1, { error: "give at least one walkthrough row" })
      .max(60, { error: "at most 60 walkthrough rows: group files" }),
    effort: z.number().int({ error: "effort is a whole number from 1 to 5" }).min(1, { error: "effort is at least 1" }).max(5, { error: "effort is at most 5" }).describe("How much effort reviewing this takes: 1 (trivial) to 5 (a large, intricate change)."),
    effortReason: text("effortReason", 200).describe("One line: why that effort."),
    risks: z.array(text("a risk", 400)).max(10, { error: "at most 10 risks" }).describe("What a reviewer should look at closely; empty when nothing stands out."),
    diagram: diagram.optional().describe("Only when the change alters a flow across modules (who calls whom): a sequence diagram of the new flow. Leave it out otherwise."),
  })
  .strict();

export type SummarySubmission = z.infer<typeof schema>;
export type SummaryDiagram = NonNullable<SummarySubmission["diagram"]>;

export const submitSummaryTool: Tool<SummarySubmission> = {
  name: "submit_summary",
  description:
    "Hand over the pull request's summary. Call it once, when you are done: it ends your turn and crewbot writes the summary into the pull request's description. Text you write after it is ignored.",
  schema,
  readOnly: true,
  async run(input) {
    const summary: SummarySubmission = { ...input };
    const rows = summary.walkthrough.length;
    const text = [`## What\n${summary.what}`, `## Effort\n${summary.effort}/5: ${summary.effortReason}`, `(${rows} walkthrough row${rows === 1 ? "" : "s"}, ${summary.risks.length} risk(s)${summary.diagram ? ", a diagram" : ""})`].join("\n\n");
    return { output: "Summary submitted.", isError: false, final: { tool: "submit_summary", value: summary, text } };
  },
};
