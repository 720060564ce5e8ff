/** What a review run tells: the `crewbot/review` check run's output, and the lines of a `/review` comment. */
import { emptyUsage, type Usage } from "../agent/pricing.js";
import type { ReviewAnnotation, SeverityCounts } from "./build-review.js";
import type { Selection } from "./select-files.js";
import type { CheckConclusion, CheckOutput } from "./check-run.js";
import { blocking, GATE_WORDS, gateSet, type FailOn, type GateFinding } from "./gate.js";
import { proofLine, type ProofCounts } from "./proofs.js";
import { formatFigures } from "../report/format.js";
import type { Terminal } from "../report/types.js";

/** What one review run found and left out, as every report of it tells. */
export interface ReviewFacts {
  /** Nothing left to review (only lockfiles, or no changes since the last review). */
  nothingToReview?: string;
  counts: SeverityCounts;
  clean: boolean;
  inline: number;
  repeated: number;
  /** The repeated findings by severity: found again, so still open. */
  repeatedCounts?: SeverityCounts;
  /** The findings the check run marks on their lines. */
  annotations?: ReviewAnnotation[];
  selection?: Selection;
  /** What was reviewed: the PR against its merge base, or `since` (a commit) to the head. */
  since?: string;
  /** Why an incremental review fell back to a full one. */
  fullBecause?: string;
  review?: { url: string };
  /** crewbot's threads after this review: resolved now, findings left out as resolved or dismissed before, still open. */
  threads?: { resolved: number; closedLeftOut: number; open: number };
  /** This review's findings (found again included) and notes as the gate sees them; default: from the counts. */
  gated?: GateFinding[];
  /** Set when the review could run proofs: its findings reproduced, unverified, refuted. */
  proofs?: ProofCounts;
  /** Why no proof could run (a fork's pull request, `review.prove: off`, no sandbox). */
  noProofs?: string;
  usage?: Usage;
  costUsd: number;
  estimate: boolean;
}

export interface ReviewReport extends ReviewFacts {
  /** How the run ended; `done` for a posted or clean review. */
  terminal: Terminal;
  headSha: string;
  elapsedMs: number;
  transcript?: string;
  /** `review.failOn`: the check run fails while a finding this severe or worse is open. */
  failOn?: FailOn;
}

export type { FailOn } from "./gate.js";

/** This review's findings and those it found again, as the gate sees them. */
function gatedOf(r: ReviewReport): GateFinding[] {
  if (r.gated) return r.gated;
  const of = (severity: keyof SeverityCounts) => Array.from({ length: r.counts[severity] + (r.repeatedCounts?.[severity] ?? 0) }, () => ({ severity }));
  return [...of("critical"), ...of("warning"), ...of("suggestion")];
}

/** Open findings that hold the gate shut at `failOn`; 0 for never. */
function gating(r: ReviewReport): number {
  return blocking(r.failOn, gatedOf(r)).length;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function countsLine(c: SeverityCounts): string {
  return `${c.critical} critical · ${plural(c.warning, "warning")} · ${plural(c.suggestion, "suggestion")}`;
}

/** The lines every report of a review has: what was reviewed, what was found, what was left out. */
export function reviewLines(r: ReviewReport): string[] {
  const lines: string[] = [];
  if (r.fullBecause) lines.push(`Full review: ${r.fullBecause.replace(/: full review$/, "")}.`);
  else if (r.since) lines.push(`Incremental review: the commits ${r.since.slice(0, 7)}..${r.headSha.slice(0, 7)} since the last review.`);
  if (r.nothingToReview) lines.push(`Nothing to review: ${r.nothingToReview}.`);
  if (r.selection && !r.nothingToReview) {
    const total = r.selection.reviewed.length + r.selection.notReviewed.length;
    lines.push(`Reviewed ${r.selection.reviewed.length} of ${plural(total, "changed file")}.`);
  }
  if (r.terminal.kind === "done" && !r.nothingToReview) {
    if (r.clean) lines.push("No findings: no review was posted.");
    else lines.push(`Findings: ${countsLine(r.counts)}; ${plural(r.inline, "inline comment")}.${r.review ? ` Review: ${r.review.url}` : ""}`);
    if (r.repeated > 0) lines.push(`${plural(r.repeated, "finding")} posted on an earlier review not repeated.`);
    if (r.threads?.closedLeftOut) lines.push(`${plural(r.threads.closedLeftOut, "finding")} resolved or dismissed earlier not posted again.`);
  }
  if (r.terminal.kind === "done" && !r.nothingToReview && !r.clean) {
    if (r.proofs) lines.push(proofLine(r.proofs));
    else if (r.noProofs) lines.push(`Proof: none run (${r.noProofs}).`);
  }
  if (r.threads?.resolved) lines.push(`Resolved ${plural(r.threads.resolved, "review thread")} whose lines the new commits changed.`);
  const notReviewed = r.selection?.notReviewed ?? [];
  if (notReviewed.length > 0 && !r.nothingToReview) {
    const shown = notReviewed.slice(0, 20).map((n) => `${n.path} (${n.reason})`);
    const more = notReviewed.length > 20 ? `, and ${notReviewed.length - 20} more` : "";
    lines.push(`Not reviewed: ${shown.join(", ")}${more}.`);
  }
  return lines;
}

function conclusionOf(r: ReviewReport): CheckConclusion {
  switch (r.terminal.kind) {
    case "cancelled":
      return "cancelled";
    case "failed":
      return "failure";
    case "stopped":
      return "neutral";
    case "done":
      if (r.nothingToReview) return "skipped";
      // A gate set: pass or fail, as branch protection reads it; no gate: findings only inform.
      if (gateSet(r.failOn)) return gating(r) > 0 ? "failure" : "success";
      return r.clean ? "success" : "neutral";
  }
}

function titleOf(r: ReviewReport): string {
  switch (r.terminal.kind) {
    case "cancelled":
      return r.terminal.reason ? `Cancelled: ${r.terminal.reason}` : "Cancelled";
    case "failed":
      return `Failed: ${r.terminal.reason}`;
    case "stopped":
      return `Stopped: ${r.terminal.budget}`;
    case "done":
      if (r.nothingToReview) return "Nothing to review";
      return r.clean ? "No findings" : countsLine(r.counts);
  }
}

function gateLine(r: ReviewReport): string[] {
  if (r.terminal.kind !== "done" || r.nothingToReview || !gateSet(r.failOn)) return [];
  const what = GATE_WORDS[r.failOn];
  const n = gating(r);
  return [n > 0 ? `Failing: ${plural(n, `open ${what}`)} (review.failOn: ${r.failOn}).` : `Passing: no open ${what} (review.failOn: ${r.failOn}).`];
}

/** The check run's conclusion, output and annotations: summary, counts, what was left out, and what it cost. */
export function renderReviewCheck(r: ReviewReport): { conclusion: CheckConclusion; output: CheckOutput; annotations: ReviewAnnotation[] } {
  const figures = formatFigures({ elapsedMs: r.elapsedMs, usage: r.usage ?? emptyUsage(), costUsd: r.costUsd, estimate: r.estimate });
  const summary = [...[...reviewLines(r), ...gateLine(r)].map((l) => `- ${l}`), "", figures + (r.transcript ? ` · [Transcript](${r.transcript})` : "")].join("\n");
  const annotations = r.terminal.kind === "done" ? (r.annotations ?? []) : [];
  return { conclusion: conclusionOf(r), output: { title: titleOf(r), summary }, annotations };
}

/** A skip decided before any work: the reason is the whole summary. */
export function renderSkippedCheck(reason: string): { conclusion: CheckConclusion; output: CheckOutput } {
  return { conclusion: "skipped", output: { title: "Skipped", summary: `Not reviewed automatically: ${reason}.` } };
}
