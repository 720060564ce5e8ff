/**
 * What the reviewer reads of a proof's runs: the exit code and the first failure, not the whole
 * tail. The proof record and the review comment keep the tail as it was (PROOF_TAIL_BYTES); the
 * model gets the lines that say what failed, with the throwaway copies' paths made relative and
 * stack frames past the first of each run left out, at most MODEL_LINES lines and MODEL_CHARS
 * characters — every call's result is re-read on each later turn.
 */
import type { ProofRun } from "./proof-session.js";

export const MODEL_LINES = 30;
export const MODEL_CHARS = 1500;
/** A run that passed shows only its last lines (a test runner's summary): enough to see a reproducer that tested nothing. */
const PASSED_LINES = 8;

/** `/…/proof-3/head/test/x.mjs` or `file:///…/proof-3/base/…`: a copy's path, shown relative to the repository. */
const COPY_PATH = /(?:file:\/\/)?\/[^\s'"()`]*?\/proof-\d+\/(?:head|base)\//g;
/** A line that says something failed: TAP's `not ok`, a runner's ✖/FAIL, an error or assertion, a traceback. */
const FAILURE = /^\s*(?:not ok\b|✖|×|FAIL\b|error\b)|\b(?:\w*Error|\w*Exception|Traceback|panicked)\b(?!\()|\bERR!|\b[Ff]ail(?:ed|ure)?\b(?!\s*[:=]?\s*0\b)/;
/** A stack frame: `    at f (file.js:1:2)`, or a line of TAP's indented `stack: |-` block. */
const FRAME = /^\s+at\s/;

function withoutFrames(lines: readonly string[]): string[] {
  const out: string[] = [];
  let inFrames = false;
  let stackIndent: number | undefined;
  for (const line of lines) {
    const indent = line.length - line.trimStart().length;
    if (stackIndent !== undefined && (line.trim() === "" || indent > stackIndent)) {
      if (!inFrames) out.push(line);
      inFrames = true;
      continue;
    }
    stackIndent = /^\s*stack:\s*\|-?\s*$/.test(line) ? indent : undefined;
    if (FRAME.test(line)) {
      if (!inFrames) out.push(line);
      inFrames = true;
      continue;
    }
    inFrames = false;
    out.push(line);
  }
  return out;
}

function capped(lines: readonly string[]): { text: string; more: number } {
  const shown: string[] = [];
  let chars = 0;
  for (const line of lines.slice(0, MODEL_LINES)) {
    if (chars + line.length + 1 > MODEL_CHARS) break;
    shown.push(line);
    chars += line.length + 1;
  }
  return { text: shown.join("\n"), more: lines.length - shown.length };
}

/** The part of a failing run's output the model reads: from its first failure on, or its end when none is recognised. */
export function firstFailure(output: string): { text: string; more: number } {
  const lines = withoutFrames(output.replace(COPY_PATH, "").replace(/\s+$/, "").split("\n"));
  const at = lines.findIndex((l) => FAILURE.test(l));
  if (at === -1) return capped(lines.slice(-MODEL_LINES));
  return capped(lines.slice(at));
}

/** One run as the model reads it: a heading with its exit code (or problem), then what it needs of the output. */
export function runForModel(name: "head" | "base", run: ProofRun): string[] {
  const heading = `## ${name}: ${run.problem ?? `exit code ${run.exitCode}`}`;
  const output = run.tail.trim();
  if (output === "") return [heading, "(no output)"];
  // A base that passes as it should says all in its exit code.
  if (run.exitCode === 0 && run.problem === undefined) {
    return name === "base" ? [heading] : [heading, output.replace(COPY_PATH, "").split("\n").slice(-PASSED_LINES).join("\n")];
  }
  const { text, more } = firstFailure(run.tail);
  const rest = more > 0 ? [`(… ${more} more line${more === 1 ? "" : "s"}${run.artifact ? `; the whole output: ${run.artifact}` : ""})`] : [];
  return [heading, text, ...rest];
}
