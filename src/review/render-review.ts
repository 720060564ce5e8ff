/** What a review run tells: the `crewbot/review` check run's output, and the lines of a `/review` comment. */
import { emptyUsage, type Usage } from "../agent/pricing.js";
import type { ReviewAnnotation, SeverityCounts } from "./build-review.js";
import type { Selection } from "./select-files.js";
import type { CheckConclusion, CheckOutput } from "./check-run.js";
import { blocking, GATE_WORDS, gateConclusion, gateSet, type FailOn, type GateFinding } from "./gate.js";
import type { OpenFinding } from "./open-findings.js";
import { proofLine, type ProofCounts } from "./proofs.js";
import { learningsLine, type LearningCounts } from "./learning-uses.js";
import { formatCost, formatFigures } from "../report/format.js";
import type { ReviewEffort } from "./effort.js";
import type { Terminal } from "../report/types.js";
import { dependencyLine, type DependencyCounts } from "./dependency-section.js";

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
  /** Every finding of crewbot's open on the pull request after this review, earlier reviews' included: what the gate counts. */
  open?: OpenFinding[];
  /** This review's notes (findings without a line): they count for the gate of this review only. */
  notes?: GateFinding[];
  /** Set when the review could run proofs: its findings reproduced, unverified, refuted. */
  proofs?: ProofCounts;
  /** Why no proof could run (a fork's pull request, `review.prove: off`, no sandbox). */
  noProofs?: string;
  /** Set when the reviewer applied merged learnings: how many, and the findings they left out or shaped. */
  learnings?: LearningCounts;

  /** The dependency pass (review/dependency-section.ts): its counts, or why it did not run though dependency files changed. */
  dependencies?: (DependencyCounts & { problems: number }) | { notRun: string };
  usage?: Usage;
  costUsd: number;
  estimate: boolean;
  /** `review.effort`, set when a model reviewed: the cost line names it beside the cost. */
  effort?: ReviewEffort;
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

/** What the gate counts: the open findings on the pull request, and this review's notes. */
const gated = (r: Pick<ReviewReport, "open" | "notes">): GateFinding[] => [...(r.open ?? []), ...(r.notes ?? [])];

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
    if (r.clean) lines.push(r.review ? `No findings. Review: ${r.review.url}` : "No findings: no review was posted.");
    else lines.push(`Findings: ${countsLine(r.counts)}; ${plural(r.inline, "inline comment")}.${r.review ? ` Review: ${r.review.url}` : ""}`);
    if (r.repeated > 0) lines.push(`${plural(r.repeated, "finding")} posted on an earlier review not repeated.`);
    if (r.threads?.closedLeftOut) lines.push(`${plural(r.threads.closedLeftOut, "finding")} resolved or dismissed earlier not posted again.`);
    const learned = learningsLine(r.learnings);
    if (learned) lines.push(learned);
  }
  if (r.terminal.kind === "done" && !r.nothingToReview && !r.clean) {
    if (r.proofs) lines.push(proofLine(r.proofs));
    else if (r.noProofs) lines.push(`Proof: none run (${r.noProofs}).`);
  }
  if (r.dependencies) lines.push("notRun" in r.dependencies ? `Dependencies: not inspected (${r.dependencies.notRun}).` : dependencyLine(r.dependencies, r.dependencies.problems));
  if (r.threads?.resolved) lines.push(`Resolved ${plural(r.threads.resolved, "review thread")} whose lines the new commits changed.`);
  const notReviewed = r.selection?.notReviewed ?? [];
  if (notReviewed.length > 0 && !r.nothingToReview) {
    const shown = notReviewed.slice(0, 20).map((n) => `${n.path} (${n.reason})`);
    const more = notReviewed.length > 20 ? `, and ${notReviewed.length - 20} more` : "";
    lines.push(`Not reviewed: ${shown.join(", ")}${more}.`);
  }
  if (r.effort) lines.push(costLine({ ...r, effort: r.effort }));
  return lines;
}

/** What the model's review cost, beside the effort level it ran at: `Cost: $0.0312 (effort: standard).` */
export function costLine(r: Pick<ReviewFacts, "costUsd" | "estimate"> & { effort: ReviewEffort }): string {
  return `Cost: ${r.estimate ? "~" : ""}${formatCost(r.costUsd)} (${r.estimate ? "an estimate; " : ""}effort: ${r.effort}).`;
}

function conclusionOf(r: ReviewReport): CheckConclusion {
  switch (r.terminal.kind) {
    case "cancelled":
      return "cancelled";
    case "failed":
      return "failure";
    case "stopped":
      // Neutral passes branch protection: not while a finding at the gate's level is open.
      return blocking(r.failOn, gated(r)).length > 0 ? "failure" : "neutral";
    case "done":
      return gateConclusion(r.failOn, r.nothingToReview ? "skipped" : r.clean ? "clean" : "findings", gated(r));
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
    case "done": {
      const held = holding(r.failOn, gated(r));
      if (r.nothingToReview) return held ? `Nothing new to review · ${held}` : "Nothing to review";
      if (r.clean) return held ? `No new findings · ${held}` : "No findings";
      return countsLine(r.counts);
    }
  }
}

/** What holds the gate shut, for a title ("1 open critical finding"); empty when nothing does. */
function holding(failOn: FailOn | undefined, open: readonly GateFinding[]): string {
  const n = blocking(failOn, open).length;
  return gateSet(failOn) && n > 0 ? plural(n, `open ${GATE_WORDS[failOn]}`) : "";
}

/** At most this many open findings are listed in a check run's summary. */
const LISTED = 50;

const LABEL = { critical: "Critical", warning: "Warning", suggestion: "Suggestion" } as const;

/** One open finding for the check run: severity, place, its first line and a link to its thread. */
function openLine(f: OpenFinding): string {
  const place = `${f.path}:${f.line}${f.endLine !== undefined && f.endLine !== f.line ? `-${f.endLine}` : ""}`;
  return `  - **${LABEL[f.severity]}** \`${place}\` — ${f.title.replace(/\s+/g, " ")}${f.url ? ` ([thread](${f.url}))` : ""}`;
}

/**
 * The gate's verdict with what holds it: `Failing: …` and the open findings at the level (earlier
 * reviews' included), or `Passing: …`. Nothing without a gate.
 */
export function gateLines(failOn: FailOn | undefined, open: readonly OpenFinding[], notes: readonly GateFinding[] = []): string[] {
  if (!gateSet(failOn)) return [];
  const what = GATE_WORDS[failOn];
  const held = blocking(failOn, open);
  const heldNotes = blocking(failOn, notes).length;
  const n = held.length + heldNotes;
  if (n === 0) return [`Passing: no open ${what} (review.failOn: ${failOn}).`];
  const more = held.length > LISTED ? [`  - … and ${held.length - LISTED} more`] : [];
  const noted = heldNotes > 0 ? [`  - ${plural(heldNotes, "note")} of this review without a line`] : [];
  return [`Failing: ${plural(n, `open ${what}`)} (review.failOn: ${failOn}):\n${[...held.slice(0, LISTED).map(openLine), ...more, ...noted].join("\n")}`];
}

function gateLine(r: ReviewReport): string[] {
  if (r.terminal.kind === "cancelled" || r.terminal.kind === "failed") return [];
  if (r.terminal.kind === "stopped" && blocking(r.failOn, gated(r)).length === 0) return [];
  return gateLines(r.failOn, r.open ?? [], r.notes ?? []);
}

/** The check run's conclusion, output and annotations: summary, counts, what was left out, and what it cost. */
export function renderReviewCheck(r: ReviewReport): { conclusion: CheckConclusion; output: CheckOutput; annotations: ReviewAnnotation[] } {
  const figures = formatFigures({ elapsedMs: r.elapsedMs, usage: r.usage ?? emptyUsage(), costUsd: r.costUsd, estimate: r.estimate });
  const summary = [...[...reviewLines(r), ...gateLine(r)].map((l) => `- ${l}`), "", figures + (r.transcript ? ` · [Transcript](${r.transcript})` : "")].join("\n");
  const annotations = r.terminal.kind === "done" ? (r.annotations ?? []) : [];
  return { conclusion: conclusionOf(r), output: { title: titleOf(r), summary }, annotations };
}

/**
 * A skip decided before any work: the reason, and with a gate the findings still open on the pull
 * request — `neutral` only when none at the level is.
 */
/** Why an automatic review did not run, as the gate counts it. */
export type SkipRun = "skipped" | "paused" | "capped";

/** Per kind of skip: the check run's title, and the queue's outcome line before its reason. */
export const SKIP_WORDS: Record<SkipRun, { title: string; outcome: string }> = {
  skipped: { title: "Skipped", outcome: "✅ Skipped" },
  paused: { title: "Paused", outcome: "✅ Paused" },
  capped: { title: "Monthly budget used", outcome: "⏸ Stopped" },
};

export function renderSkippedCheck(reason: string, gate: { failOn?: FailOn; open?: readonly OpenFinding[]; run?: SkipRun } = {}): { conclusion: CheckConclusion; output: CheckOutput } {
  const open = gate.open ?? [];
  const run = gate.run ?? "skipped";
  const conclusion = gateConclusion(gate.failOn, run, open);
  const held = holding(gate.failOn, open);
  const title = held ? `Not reviewed · ${held}` : SKIP_WORDS[run].title;
  const summary = [`Not reviewed automatically: ${reason}.`, ...gateLines(gate.failOn, open).map((l) => `- ${l}`)].join("\n\n");
  return { conclusion, output: { title, summary } };
}
