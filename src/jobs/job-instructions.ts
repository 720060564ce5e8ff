/**
 * A job's repository instructions: chosen (context/instructions-for-paths.ts) from the default
 * branch's instruction files for the files the job touches or reviews, given as context, and
 * listed in the transcript with what was left out and why.
 */
import type { AgentEvent } from "../agent/events.js";
import type { ContextSection } from "../text/prompt.js";
import type { CrewbotConfig } from "../config/schema.js";
import { instructionKind } from "../context/instruction-files.js";
import { repoInstructions } from "../context/repo-instructions.js";
import type { JobRecord } from "../queue/types.js";
import type { ReadLog } from "../workspace/confined-read.js";
import { SKILL_TREES, type DefaultBranchFiles } from "./default-branch.js";
import { changedPaths } from "../workspace/diff.js";

export interface JobInstructions {
  sections: ContextSection[];
  /** For the transcript: each source given (with the files it applies to), then what was left out or not applied. */
  applied: string[];
  /** Instruction files of the default branch crewbot could not use (symlink, too large, broken frontmatter), for the job's notes. */
  notes: string[];
}

/**
 * The files a job touches or reviews: what the job says (a review's file selection); for any other
 * job on a pull request its changed files (against its base branch when known, else the default
 * branch); none known upfront for an issue's job. Read in the mirror, from trees only.
 */
export async function touchedFiles(
  mirror: string,
  job: JobRecord,
  commits: { head: string; defaultBranch: string },
  given: (() => readonly string[]) | undefined,
  log: ReadLog,
): Promise<readonly string[] | undefined> {
  if (given) return given();
  if (!job.target.isPullRequest) return undefined;
  const base = job.review?.baseRef ? `refs/heads/${job.review.baseRef}` : commits.defaultBranch;
  try {
    return await changedPaths(mirror, base, commits.head);
  } catch (error) {
    log.warn(`job ${log.jobId}: the files of pull request #${job.target.number} could not be listed (${(error as Error).message}); only the root's instructions are given`);
    return [];
  }
}

/** The instructions of the default branch (written to `defaultsDir`) for a job touching `paths`. */
export async function jobInstructions(
  defaultsDir: string,
  defaults: Pick<DefaultBranchFiles, "files" | "skipped">,
  job: Pick<JobRecord, "kind">,
  config: CrewbotConfig,
  paths: readonly string[] | undefined,
  log: ReadLog,
): Promise<JobInstructions> {
  const request = { review: job.kind === "review", configured: config.review.instructions, origin: "default branch", ...(paths ? { paths } : {}) };
  const chosen = await repoInstructions(defaultsDir, defaults.files, request, log);
  return { sections: chosen.sections, applied: chosen.applied, notes: [...skippedNotes(defaults.skipped), ...chosen.problems] };
}

/** Instruction files the default branch could not give, each by name; those over a cap summed up in one line. */
function skippedNotes(skipped: DefaultBranchFiles["skipped"]): string[] {
  const instructions = skipped.filter((s) => instructionKind(s.path) !== undefined && !SKILL_TREES.some((tree) => s.path.startsWith(`${tree}/`)));
  const capped = instructions.filter((s) => s.reason.startsWith("more than") || s.reason.startsWith("instruction files over"));
  const named = instructions.filter((s) => !capped.includes(s)).map((s) => `${s.path}: skipped (${s.reason}); its instructions are not given`);
  const reasons = [...new Set(capped.map((s) => s.reason))];
  return [...named, ...reasons.map((reason) => `${capped.filter((s) => s.reason === reason).length} instruction files skipped (${reason})`)];
}

/** The transcript's entry naming the instructions the agents were given. */
export function instructionEvents(applied: readonly string[]): AgentEvent[] {
  if (applied.length === 0) return [];
  return [{ type: "log", level: "info", message: `Repository instructions (default branch):\n${applied.map((line) => `- ${line}`).join("\n")}` }];
}
