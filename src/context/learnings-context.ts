/**
 * The merged learnings (`.github/crewbot/learnings.md` of the DEFAULT branch) as context of the
 * reviewer and the planner: instructions of the team, merged by people through a pull request,
 * each numbered by its id so the reviewer can name the ones it applied in `submit_review`.
 * A learnings file on a pull request's head, or on crewbot's unmerged `crewbot/learnings` branch,
 * is never read: only the default branch's files are written to the folder this reads.
 */
import type { ContextSection } from "../text/prompt.js";
import { isRoleName, ROLES } from "../agent/roles.js";
import { parseLearnings, type Learning } from "../learnings/learnings-file.js";
import { LEARNINGS_PATH } from "../learnings/types.js";
import { readConfined, type ReadLog } from "../workspace/confined-read.js";

/** Bytes of the file read; a team's learnings are a few KB, the rest is cut with a note. */
export const LEARNINGS_MAX_BYTES = 32 * 1024;

export const LEARNINGS_SOURCE = `${LEARNINGS_PATH} (default branch): the repository's learnings, instructions of the team merged by people`;

const LEAD = [
  "What this team taught crewbot in earlier reviews, merged on the default branch by people. Follow these like the repository's other instructions.",
  "Each learning is numbered [L:<id>]. When one keeps you from posting a finding, or changes one (its severity, its wording), name it in submit_review: `learnings` with how many findings it kept you from posting, and `learning` on a finding it shaped.",
].join("\n");

export interface RepoLearnings {
  /** The learnings given, in the file's order (a cut file's last, partial bullet left out). */
  learnings: Learning[];
  /** The context section of the reviewer and the planner; absent when the file has no learning. */
  section?: ContextSection;
  /** What could not be used, for the job's notes (a symlink, a cut file). */
  notes: string[];
}

const NONE: RepoLearnings = { learnings: [], notes: [] };

/**
 * The learnings of the default branch, from `defaultsDir` (jobs/default-branch.ts wrote only
 * the default branch's regular files there; a symlink is listed in `skipped`). Confined and capped.
 */
export async function readRepoLearnings(
  defaultsDir: string,
  defaults: { files: readonly string[]; skipped: readonly { path: string; reason: string }[] },
  log?: ReadLog,
): Promise<RepoLearnings> {
  const skipped = defaults.skipped.find((s) => s.path === LEARNINGS_PATH);
  if (skipped) return { ...NONE, notes: [`${LEARNINGS_PATH}: skipped (${skipped.reason}); its learnings are not given`] };
  if (!defaults.files.includes(LEARNINGS_PATH)) return NONE;
  const read = await readConfined(defaultsDir, LEARNINGS_PATH, { maxBytes: LEARNINGS_MAX_BYTES, ...(log ? { log } : {}) });
  if (!read.ok) return NONE;
  let learnings = parseLearnings(read.text).learnings;
  const notes: string[] = [];
  if (read.truncated) {
    // The cut went through the last bullet: it is left out rather than given half.
    learnings = learnings.slice(0, -1);
    notes.push(`${LEARNINGS_PATH}: larger than ${LEARNINGS_MAX_BYTES / 1024} KB; only the learnings in its first ${LEARNINGS_MAX_BYTES / 1024} KB are given`);
  }
  if (learnings.length === 0) return { learnings, notes };
  return { learnings, section: learningsSection(learnings, read.truncated), notes };
}

/** One line per learning, `[L:<id>] text` (continuation lines indented), after the lead. */
export function learningsSection(learnings: readonly Pick<Learning, "id" | "text">[], truncated = false): ContextSection {
  const lines = learnings.map((l) => `[L:${l.id}] ${l.text.split("\n").join("\n  ")}`);
  const cut = truncated ? [`[… ${LEARNINGS_PATH} cut at ${LEARNINGS_MAX_BYTES / 1024} KB]`] : [];
  return { source: LEARNINGS_SOURCE, text: [LEAD, "", ...lines, ...cut].join("\n") };
}

/** The learnings of a section as it reached a model's request: what a scripted reviewer reads (bench). */
export function learningsInSection(text: string): { id: string; text: string }[] {
  return [...text.matchAll(/^\[L:([0-9a-f]{8})\] (.*(?:\n {2}.*)*)/gm)].map((m) => ({ id: m[1]!, text: m[2]!.replace(/\n {2}/g, "\n") }));
}

/** The extra context of one step: the learnings for the roles that get them (the reviewer and the planner), nothing for the others. */
export function learningsFor(role: string, learnings: RepoLearnings | undefined): ContextSection[] {
  return learnings?.section && isRoleName(role) && ROLES[role].learnings ? [learnings.section] : [];
}
