/** A reviewer's result, whichever way it came: `submit_review` or text the parser reads. A tool call wins over text (DESIGN §3). */
import type { StepOutput } from "../tools/types.js";
import type { Finding, ParsedReview } from "./types.js";
import type { ReviewSubmission } from "../tools/submit-review.js";
import { parseReview } from "./parse-findings.js";

export function reviewOf(output: StepOutput): ParsedReview {
  if (output.submission?.tool !== "submit_review") return parseReview(output.text);
  const value = output.submission.value as ReviewSubmission;
  const findings = value.findings.map((f): Finding => {
    const finding: Finding = { path: f.path, line: f.line, severity: f.severity, text: f.body };
    if (f.endLine !== undefined) finding.endLine = f.endLine;
    if (f.suggestion !== undefined) finding.suggestion = f.suggestion;
    if (f.learning) finding.learning = f.learning;
    if (f.kind) finding.kind = f.kind;
    if (f.unprovable) finding.unprovable = f.unprovable;
    return finding;
  });
  const learnings = value.learnings?.map((l) => ({ id: l.id, suppressed: l.suppressed ?? 0 }));
  return { findings, summary: value.summary, notes: [], ...(learnings ? { learnings } : {}) };
}
