/**
 * Findings with proof (DESIGN §2): the reviewer's proofs (`prove`) joined to its findings by index,
 * a finding whose reproducer did not reproduce downgraded to a suggestion (docs/decisions.md), and
 * what a review comment says about each: `🔬 Reproduced` with the command, the failing output's
 * tail and the reproducer ready to commit; `unverified` for a critical or warning finding without
 * one; `Not reproduced` for one a reproducer refuted. Pure.
 */
import type { Finding, Severity } from "./types.js";
import { codeBlock, codeSpan, safeInline } from "../text/github-markdown.js";
import type { Proof } from "../tools/proof-session.js";

/** What the proofs did to a review's findings, for the check run and the job's line. */
export interface ProofCounts {
  reproduced: number;
  /** Critical and warning findings without a reproduction (no proof, or one that could not run). */
  unverified: number;
  /** Findings a reproducer did not reproduce (downgraded to suggestions). */
  refuted: number;
}

export const NO_PROOFS: ProofCounts = { reproduced: 0, unverified: 0, refuted: 0 };

const gated = (s: Severity) => s === "critical" || s === "warning";

/**
 * Each finding with the last proof of its index; one not reproduced becomes a suggestion that
 * remembers the severity it had (`refuted`). Proofs naming no finding are returned apart.
 */
export function withProofs<F extends Finding>(findings: readonly F[], proofs: readonly Proof[]): { findings: F[]; unmatched: Proof[] } {
  const byIndex = new Map(proofs.map((p) => [p.finding, p]));
  const out = findings.map((f, i) => {
    const proof = byIndex.get(i);
    if (proof === undefined) return f;
    if (proof.outcome === "not reproduced" && gated(f.severity)) return { ...f, proof, severity: "suggestion" as const, refuted: f.severity };
    return { ...f, proof };
  });
  return { findings: out, unmatched: proofs.filter((p) => p.finding >= findings.length) };
}

export function countProofs(findings: readonly Finding[]): ProofCounts {
  const counts = { ...NO_PROOFS };
  for (const f of findings) {
    if (f.proof?.outcome === "reproduced") counts.reproduced++;
    else if (f.proof?.outcome === "not reproduced") counts.refuted++;
    else if (gated(f.severity) && !f.fact) counts.unverified++;
  }
  return counts;
}

/** The output shown under a reproduced finding: its last lines, at most this many characters. */
export const SHOWN_TAIL_CHARS = 1500;
const SHOWN_TAIL_LINES = 25;
/** A reproducer file shown in a comment; the whole file is in the job's artifacts. */
const SHOWN_FILE_CHARS = 8000;

function tailOf(output: string): string {
  const lines = output.replace(/\s+$/, "").split("\n");
  let tail = lines.slice(-SHOWN_TAIL_LINES).join("\n");
  if (tail.length > SHOWN_TAIL_CHARS) tail = tail.slice(tail.length - SHOWN_TAIL_CHARS);
  return tail === "" ? "(no output)" : tail;
}

function reproducer(proof: Proof): string {
  if (proof.files.length === 0) return "";
  const names = proof.files.map((f) => f.path).join(", ");
  const files = proof.files.map((f) => {
    const shown = f.content.length <= SHOWN_FILE_CHARS ? f.content : `${f.content.slice(0, SHOWN_FILE_CHARS)}\n… (cut: the whole file is in the job's artifacts)`;
    return `${codeSpan(f.path)}\n\n${codeBlock(shown.replace(/\n$/, ""))}`;
  });
  return `\n\n<details><summary>Reproducer: ${codeSpan(names, 300)}</summary>\n\n${files.join("\n\n")}\n\n</details>`;
}

/**
 * The lines a finding's comment ends with (before its marker): the proof, or `unverified` for a
 * critical or warning finding without one when the review could run proofs. "" otherwise.
 */
export function proofSection(f: Finding, proofsRan: boolean): string {
  const proof = f.proof;
  if (proof?.outcome === "reproduced") {
    return `🔬 **Reproduced**: ${codeSpan(proof.command, 300)} — ${proof.reason}.\n\n${codeBlock(tailOf(proof.head.tail))}${reproducer(proof)}`;
  }
  if (proof?.outcome === "not reproduced") {
    const was = f.refuted !== undefined ? ` — downgraded from ${f.refuted}` : "";
    return `🔬 **Not reproduced**: ${codeSpan(proof.command, 300)} — ${proof.reason}${was}.${reproducer(proof)}`;
  }
  if (!proofsRan || !gated(f.severity) || f.fact) return "";
  if (proof?.outcome === "error") return `_unverified: the reproducer could not run (${proof.reason})._`;
  // The reviewer's reason is model text: one line, escaped, capped.
  if (f.unprovable) return `_unverified: no reproducer_ — ${safeInline(f.unprovable)}`;
  return "_unverified: no reproducer._";
}

/** One line for the check run: how many findings were reproduced, unverified, refuted. */
export function proofLine(c: ProofCounts): string {
  return `Proof: ${c.reproduced} reproduced · ${c.unverified} unverified · ${c.refuted} refuted.`;
}
