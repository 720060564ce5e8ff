/**
 * `submit_review` (the reviewer): hands the findings over as data. Calling it ends the reviewer;
 * no findings is a clean review. `suggestion` is the replacement text for `line..endLine`.
 */
import { z } from "zod";
import type { Tool } from "./types.js";

/** The severities a finding may have, most severe first: the one list the review and the dependency pass use. */
export const SEVERITIES = ["critical", "warning", "suggestion"] as const;
export type Severity = (typeof SEVERITIES)[number];

const finding = z
  .object({
    path: z.string().trim().min(1, { error: "path must not be empty" }).describe("File path relative to the repository root."),
    line: z
      .number()
      .int()
      .min(1)
      .describe(
        "Line in the NEW version of the file (after the change). It may lie outside the diff, in a changed or an unchanged file, when that is where the problem is " +
          "(e.g. an unchanged package.json that lacks a script): such a finding is posted in the review's body instead of inline.",
      ),
    endLine: z.number().int().min(1).optional().describe("Last line of a range (inclusive), when the finding spans several lines."),
    severity: z.enum(SEVERITIES).describe("critical: must be fixed before merging; warning: should be fixed; suggestion: optional."),
    body: z.string().trim().min(1, { error: "body must not be empty" }).describe("What is wrong, why it matters, and how to fix it."),
    suggestion: z
      .string()
      .optional()
      .describe("The exact replacement text for lines line..endLine (the whole lines, with their indentation), when there is a concrete fix."),
    kind: z
      .string()
      .trim()
      .max(60, { error: "kind: at most 60 characters" })
      .optional()
      .describe('The kind of finding in a few plain words, without names from this code (e.g. "raw sql string", "missing null check"): how the team\'s answers to it are remembered.'),
    learning: z.string().trim().optional().describe("The id of a repository learning ([L:<id>]) that shaped this finding (its severity, its wording)."),
    unprovable: z
      .string()
      .trim()
      .max(300, { error: "unprovable: at most 300 characters" })
      .optional()
      .describe(
        "For a critical or warning finding you cannot back with prove: why, in one sentence (e.g. \"it needs Node 6 and only Node 20 runs here\"). Shown beside its unverified mark.",
      ),
  })
  .strict();

/** A repository learning the reviewer applied, and how many findings it kept the reviewer from posting. */
const appliedLearning = z
  .object({
    id: z.string().trim().min(1).describe("The learning's id, as numbered in the repository's learnings: [L:<id>]."),
    suppressed: z.number().int().min(0).optional().describe("How many findings this learning kept you from posting."),
  })
  .strict();

const schema = z
  .object({
    summary: z.string().describe("Two to four sentences: what the change does, whether it is ready to merge, the most important thing to fix."),
    findings: z.array(finding).max(100, { error: "at most 100 findings" }).describe("Only findings that matter; empty for a clean review."),
    learnings: z.array(appliedLearning).max(100).optional().describe("The repository learnings you applied, when any: each learning that kept a finding out or shaped one."),
  })
  .strict();

export type ReviewSubmission = z.infer<typeof schema>;
export type SubmittedFinding = ReviewSubmission["findings"][number];

const HEADING: Record<SubmittedFinding["severity"], string> = { critical: "Critical", warning: "Warnings", suggestion: "Suggestions" };

/** A range written backwards is turned round; `endLine` equal to `line` is a single line. */
function normalise(f: SubmittedFinding): SubmittedFinding {
  const out: SubmittedFinding = { ...f, path: f.path.replace(/^\.\//, "") };
  if (f.endLine !== undefined && f.endLine < f.line) [out.line, out.endLine] = [f.endLine, f.line];
  if (out.endLine === out.line) delete out.endLine;
  return out;
}

/** The review in the reviewer's text form (DESIGN §3), for `{previous}` and the transcript. */
export function renderReviewSubmission(review: ReviewSubmission): string {
  const parts: string[] = [];
  for (const severity of SEVERITIES) {
    const items = review.findings.filter((f) => f.severity === severity);
    if (items.length === 0) continue;
    const bullets = items.map((f) => {
      const where = `${f.path}:${f.line}${f.endLine !== undefined ? `-${f.endLine}` : ""}`;
      const body = f.body.trim().split("\n").map((l, i) => (i === 0 || l === "" ? l : `  ${l}`)).join("\n");
      const fix = f.suggestion !== undefined ? `\n\n  \`\`\`\`suggestion\n${f.suggestion.replace(/\n$/, "").split("\n").map((l) => `  ${l}`).join("\n")}\n  \`\`\`\`` : "";
      const unprovable = f.unprovable ? `\n  (Not provable here: ${f.unprovable.trim().replace(/\s+/g, " ")})` : "";
      return `- ${where} - ${body}${unprovable}${fix}`;
    });
    parts.push(`## ${HEADING[severity]}\n${bullets.join("\n")}`);
  }
  parts.push(`## Summary\n${review.summary.trim() || (review.findings.length === 0 ? "No findings." : "(no summary)")}`);
  return parts.join("\n\n");
}

export const submitReviewTool: Tool<ReviewSubmission> = {
  name: "submit_review",
  description:
    "Hand over your finished review. Call it once, when you are done: it ends your turn and the findings become review comments on their lines. An empty findings list is a clean review. Text you write after it is ignored.",
  schema,
  readOnly: true,
  async run(input) {
    const review: ReviewSubmission = { summary: input.summary.trim(), findings: input.findings.map(normalise), ...(input.learnings ? { learnings: input.learnings } : {}) };
    const text = renderReviewSubmission(review);
    const output = `Review submitted (${review.findings.length} finding${review.findings.length === 1 ? "" : "s"}).`;
    return { output, isError: false, final: { tool: "submit_review", value: review, text } };
  },
};
