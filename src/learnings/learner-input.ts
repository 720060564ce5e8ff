/**
 * What the learner reads and what crewbot keeps of its answer: the candidates as data (their
 * sightings' texts cleaned and capped), the current file, and the model's words checked one by
 * one against the candidates they name. Pure.
 */
import type { ContextSection } from "../text/prompt.js";
import { cleanText } from "../text/clean-text.js";
import type { LearningsSubmission } from "../tools/submit-learnings.js";
import { checkLearningWords } from "./learning-words.js";
import { candidateLearningId, learningText } from "./proposal.js";
import type { Candidate } from "./types.js";

/** Per candidate, at most this many of its sightings are quoted, each cut to this length. */
export const QUOTED_SIGHTINGS = 5;
export const QUOTE_CHARS = 600;
const FILE_CHARS = 20_000;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export const LEARNER_TASK =
  "Word one learning for each candidate in the context that teaches something general, keyed by its `key`, and hand them over with `submit_learnings`. Leave out the others.";

/** The candidates, one section each, and the learnings file as it is now. */
export function learnerContext(candidates: readonly Candidate[], currentFile: string | undefined): ContextSection[] {
  const sections = candidates.map((c): ContextSection => {
    const quoted = c.sightings.slice(-QUOTED_SIGHTINGS).map((s) => `- on #${s.number}${s.path ? ` (${s.path})` : ""}, ${s.source} by ${s.by}: ${cut(cleanText(s.text).trim(), QUOTE_CHARS)}`);
    const text = [`key: ${c.key}`, `how it was taught: ${c.source}, ${c.sightings.length} time(s)`, `kind: ${cut(cleanText(c.kind), 200)}`, `paths: ${c.paths.length > 0 ? c.paths.join(", ") : "(none)"}`, "what was said:", ...quoted].join("\n");
    return { source: `learning candidate ${c.key}`, text };
  });
  const file = currentFile?.trim() ? cut(cleanText(currentFile), FILE_CHARS) : "(no learnings yet)";
  return [...sections, { source: "the current learnings file (.github/crewbot/learnings.md)", text: file }];
}

export interface CheckedLearnings {
  added: Array<{ id: string; text: string; key: string }>;
  /** Why a learning the model gave was not taken (for the job's notes and log). */
  refused: string[];
  /** Candidates the model gave no learning for: they stay candidates. */
  leftOut: string[];
}

/** The model's learnings that name a candidate and pass the checks, each with crewbot's sources appended; one per candidate. */
export function checkedLearnings(candidates: readonly Candidate[], submission: LearningsSubmission): CheckedLearnings {
  const byKey = new Map(candidates.map((c) => [c.key, c]));
  const result: CheckedLearnings = { added: [], refused: [], leftOut: [] };
  const taken = new Set<string>();
  for (const given of submission.learnings) {
    const candidate = byKey.get(given.candidate);
    if (!candidate) {
      result.refused.push(`a learning for an unknown candidate ${JSON.stringify(cut(given.candidate, 60))} was dropped`);
      continue;
    }
    if (taken.has(candidate.key)) continue;
    const words = checkLearningWords(given.text);
    if (!words.ok) {
      result.refused.push(`the learning for ${JSON.stringify(cut(candidate.key, 60))} was dropped: ${words.reason}`);
      continue;
    }
    taken.add(candidate.key);
    result.added.push({ id: candidateLearningId(candidate.key), text: learningText(words.text, candidate), key: candidate.key });
  }
  result.leftOut = candidates.filter((c) => !taken.has(c.key)).map((c) => c.key);
  return result;
}
