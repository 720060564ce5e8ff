/**
 * The `crewbot/review` gate (`review.failOn`): which open findings hold it shut, and the check
 * run's conclusion. It counts every finding of crewbot's still open on the pull request — those of
 * earlier reviews included — so a push that fixes nothing never turns it green, and a skipped
 * review is `neutral` only when nothing at the level is open. Pure.
 */
import type { Severity } from "./types.js";
import type { CheckConclusion } from "./check-run.js";

export type FailOn = "never" | "critical" | "warning" | "reproduced";

/** What the gate knows of one open finding; a later level (e.g. reproduced) reads a field added here. */
export interface GateFinding {
  severity: Severity;
  /** Its reproducer failed on the head (`prove`): what `failOn: reproduced` counts. */
  reproduced?: boolean;
}

/** Per level: whether an open finding holds the gate shut. One row per `review.failOn` value. */
const HOLDS: Record<FailOn, (finding: GateFinding) => boolean> = {
  never: () => false,
  critical: (f) => f.severity === "critical",
  warning: (f) => f.severity === "critical" || f.severity === "warning",
  // Only what a reproducer showed fails the check, never the model's word alone.
  reproduced: (f) => f.reproduced === true && (f.severity === "critical" || f.severity === "warning"),
};

/** What the level says, for people: "critical finding", "critical or warning finding". */
export const GATE_WORDS: Record<Exclude<FailOn, "never">, string> = {
  critical: "critical finding",
  warning: "critical or warning finding",
  reproduced: "reproduced finding",
};

export const gateSet = (failOn: FailOn | undefined): failOn is Exclude<FailOn, "never"> => failOn !== undefined && failOn !== "never";

/** The open findings that hold the gate shut at this level, in their order. */
export function blocking<F extends GateFinding>(failOn: FailOn | undefined, open: readonly F[]): F[] {
  return open.filter(HOLDS[failOn ?? "never"]);
}

/**
 * How a run ended, as the gate sees it: a review that found nothing new (`clean`), one that posted
 * findings (`findings`), or no review at all (`skipped`: a rule of review.*, nothing new to review;
 * `paused`: a writer paused the pull request; `capped`: a monthly spend cap is reached).
 */
export type GateRun = "clean" | "findings" | "skipped" | "paused" | "capped";

/**
 * The conclusion. Without a gate: success when clean, neutral with findings (they only inform),
 * skipped when a rule skipped it, neutral when paused or capped. With one: failure while an open
 * finding at the level exists; otherwise success for a review and neutral for a skip (branch
 * protection passes both).
 */
export function gateConclusion(failOn: FailOn | undefined, run: GateRun, open: readonly GateFinding[]): CheckConclusion {
  if (!gateSet(failOn)) return run === "clean" ? "success" : run === "skipped" ? "skipped" : "neutral";
  if (blocking(failOn, open).length > 0) return "failure";
  return run === "clean" || run === "findings" ? "success" : "neutral";
}
