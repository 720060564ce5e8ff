/**
 * The dependency review as the review shows it: the body's **Dependencies** section (a table of
 * the changed packages, those not inspected with why, the lockfile problems) and the findings on
 * each risky package's lockfile or manifest line. Package names, versions, scripts and the facts'
 * words come from a repository and a registry: they are data, shown in code spans or made safe.
 */
import type { Finding, Severity } from "./types.js";
import type { DependencyFact, DependencyReview, PackageChange, PackageReport } from "../dependencies/types.js";
import { FRESH_HOURS } from "../dependencies/compare.js";
import { codeSpan, safeInline } from "../text/github-markdown.js";

/** What the dependency pass found: the packages and what could not be read (e.g. a lockfile v1). */
export interface DependencyPass {
  review: DependencyReview;
  problems: string[];
}

/** The section's own cap: the body (65 000) also holds the summary, findings and "Not reviewed". */
export const MAX_DEPENDENCY_SECTION_CHARS = 24_000;
const MAX_CELL_CHARS = 600;
const MAX_LISTED_PROBLEMS = 20;

const ORDER: Severity[] = ["critical", "warning", "suggestion"];
const RANK = (s: Severity | null | undefined) => (s ? ORDER.indexOf(s) : ORDER.length);

/** The highest severity of a package's facts, or null when none of them is a finding. */
export function riskOf(facts: readonly DependencyFact[]): Severity | null {
  let best: Severity | null = null;
  for (const f of facts) if (f.severity && RANK(f.severity) < RANK(best)) best = f.severity;
  return best;
}

/** `1.0.0 → 1.1.0`, `(added) → 2.0.0`, `1.0.0 → (removed)`; versions are repository text, so code spans. */
export function versionChange(change: PackageChange): string {
  const side = (v: PackageChange["old"], none: string) => (v ? codeSpan(v.version, 60) : none);
  return `${side(change.old, "(added)")} → ${side(change.new, "(removed)")}`;
}

/** `direct`, `transitive`, with the workspace that names it: `direct (` + "`packages/web`" + `)`. */
export function dependencyKind(change: PackageChange): string {
  const kind = change.direct ? "direct" : "transitive";
  return change.workspace ? `${kind} (${codeSpan(change.workspace, 80)})` : kind;
}

/** A fact's sentence made safe (no pings, no HTML, no marker), on one line. */
const factText = (fact: DependencyFact, max = MAX_CELL_CHARS) => safeInline(fact.text, max).replace(/\.$/, "");

/**
 * Pipes split table cells, inside code spans too: each becomes `\|` (an escaped pipe, shown as
 * `|`). A pipe after an odd run of backslashes is escaped already; after an even one it is not.
 */
export function tableCell(text: string): string {
  return text.replace(/(\\*)\|/g, (_, slashes: string) => (slashes.length % 2 === 0 ? `${slashes}\\|` : `${slashes}|`));
}

/** One table row of an inspected package. */
function row(report: PackageReport): string {
  const { change, facts } = report;
  const risk = riskOf(facts);
  const adds = facts.length === 0 ? "nothing of note" : facts.map((f) => factText(f)).join("; ");
  const capped = adds.length > MAX_CELL_CHARS * 2 ? `${adds.slice(0, MAX_CELL_CHARS * 2 - 1)}…` : adds;
  const cells = [codeSpan(change.name, 120), versionChange(change), dependencyKind(change), capped, risk ?? "—"];
  return `| ${cells.map(tableCell).join(" | ")} |`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The counts the check run and `/review` comment tell, and the section's first line. */
export interface DependencyCounts {
  changed: number;
  inspected: number;
  risky: number;
}

export function dependencyCounts(review: DependencyReview): DependencyCounts {
  const inspected = review.packages.filter((p) => p.notInspected === undefined);
  return { changed: review.packages.length, inspected: inspected.length, risky: inspected.filter((p) => riskOf(p.facts) !== null).length };
}

/** `Dependencies: 12 changed, 10 inspected, 2 with risky additions.` */
export function dependencyLine(counts: DependencyCounts, problems = 0): string {
  const risky = counts.risky === 0 ? "none with risky additions" : `${counts.risky} with risky additions`;
  const told = problems > 0 ? ` ${plural(problems, "problem")} reading the dependency files.` : "";
  return `Dependencies: ${counts.changed} changed, ${counts.inspected} inspected, ${risky}.${told}`;
}

/** Adds lines while they fit in `room`; the rest is counted in one last line. */
function fitLines(lines: readonly string[], room: number, more: (n: number) => string): string[] {
  const kept: string[] = [];
  let size = 0;
  for (const [i, line] of lines.entries()) {
    if (size + line.length + 1 > room) return [...kept, more(lines.length - i)];
    kept.push(line);
    size += line.length + 1;
  }
  return kept;
}

/**
 * The body's **Dependencies** section, or "" when no package changed and nothing went wrong.
 * Inspected packages make the table, riskiest first (stable: lockfile order otherwise); those not
 * inspected and the problems are listed after it. The whole stays under its cap.
 */
export function dependencySection(pass: DependencyPass): string {
  const { review, problems } = pass;
  if (review.packages.length === 0 && problems.length === 0) return "";
  const counts = dependencyCounts(review);
  const inspected = review.packages.filter((p) => p.notInspected === undefined);
  const notInspected = review.packages.filter((p) => p.notInspected !== undefined);
  const sorted = inspected.map((p, i) => ({ p, i })).sort((a, b) => RANK(riskOf(a.p.facts)) - RANK(riskOf(b.p.facts)) || a.i - b.i);
  const intro = [
    "### Dependencies",
    "",
    `${plural(counts.changed, "npm package")} changed, ${counts.inspected} inspected: what each new version adds over the old, read from both published tarballs (nothing of them ran).`,
  ];
  const problemLines = problems.slice(0, MAX_LISTED_PROBLEMS).map((p) => `- ${safeInline(p, 400)}`);
  if (problems.length > MAX_LISTED_PROBLEMS) problemLines.push(`- … and ${problems.length - MAX_LISTED_PROBLEMS} more`);
  const problemPart = problemLines.length > 0 ? ["", "Problems reading the dependency files:", "", ...problemLines] : [];
  const missed = notInspected.map((p) => `- ${codeSpan(p.change.name, 120)} ${versionChange(p.change)} — ${safeInline(p.notInspected!, 300)}`);
  const fixed = [...intro, ...problemPart].join("\n").length;
  // The table gets most of the room; the list of packages not inspected what is left of it.
  const tableRoom = Math.max(2_000, Math.floor((MAX_DEPENDENCY_SECTION_CHARS - fixed) * (missed.length > 0 ? 0.75 : 1)));
  const table =
    sorted.length === 0
      ? []
      : ["", "| package | old → new | kind | what the new version adds | risk |", "|---|---|---|---|---|", ...fitLines(sorted.map(({ p }) => row(p)), tableRoom, (n) => `| … and ${plural(n, "more package")} | | | | |`)];
  const listRoom = MAX_DEPENDENCY_SECTION_CHARS - fixed - table.join("\n").length - 40;
  const missedPart = missed.length > 0 ? ["", `Not inspected (${missed.length}):`, "", ...fitLines(missed, listRoom, (n) => `- … and ${n} more`)] : [];
  return [...intro, ...table, ...missedPart, ...problemPart].join("\n");
}

/**
 * One finding per risky package, on its lockfile or manifest line: its name, old → new and its
 * risky facts joined, at the highest of their severities. Facts without a severity stay in the table.
 */
export function dependencyFindings(review: DependencyReview): Finding[] {
  const findings: Finding[] = [];
  for (const report of review.packages) {
    const risky = report.facts.filter((f) => f.severity !== null).sort((a, b) => RANK(a.severity) - RANK(b.severity));
    const severity = riskOf(risky);
    if (severity === null) continue;
    const { change } = report;
    // A finding's words must not change between reviews (its fingerprint is made of them): a release's age does.
    const what = risky.map((f) => (f.kind === "fresh-release" ? `was published under ${FRESH_HOURS} hours before the review` : factText(f, 400))).join("; ");
    const text = `Dependency ${codeSpan(change.name, 120)} ${versionChange(change)} (${dependencyKind(change)}): ${what}.`;
    findings.push({ path: change.file, line: change.line, severity, text, fact: true });
  }
  return findings;
}
