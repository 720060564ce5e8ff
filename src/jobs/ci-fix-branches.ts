/**
 * Which pull request branches ci-fix rounds work on: crewbot's own `crewbot/…` branches always,
 * and the branches of other bots' pull requests (Renovate, Dependabot) that match one of the
 * repository's `implement.ciFix.branches` globs — never a fork's, whatever its branch is called.
 * Pure: the trigger asks before it reads the pull request, the job again with its own config.
 */
import picomatch from "picomatch";
import { BRANCH_PREFIX } from "../workspace/refs.js";

/** crewbot's own branches need no config to count: the trigger reads `implement.ciFix.branches` only for the others. */
export const isCrewbotBranch = (branch: string): boolean => branch.startsWith(BRANCH_PREFIX);

export interface CiFixHead {
  /** The pull request's head branch, without `refs/heads/`. */
  ref: string;
  /** Whether the head branch is in the repository the pull request is made to (not a fork). */
  sameRepository: boolean;
}

/**
 * Whether `branch` matches one of the globs (picomatch, as `review.paths`: `*` stays within one
 * `/` segment, `**` spans them, a leading `!` negates). The whole name must match, as in GitHub
 * Actions' branch filters: `renovate/**` covers `renovate/lodash-4.x`, not `my-renovate/x`.
 */
export function branchMatches(branch: string, globs: readonly string[]): boolean {
  return globs.length > 0 && picomatch([...globs], { dot: true })(branch);
}

/** Why ci-fix rounds do not work on this head; undefined when they do. */
export function ciFixBranchRefusal(head: CiFixHead, globs: readonly string[]): string | undefined {
  if (!head.sameRepository) return `branch ${head.ref} is a fork's`;
  if (isCrewbotBranch(head.ref)) return undefined;
  if (globs.length === 0) return `branch ${head.ref} is not one of crewbot's (implement.ciFix.branches names none)`;
  if (!branchMatches(head.ref, globs)) return `branch ${head.ref} is not one of crewbot's and matches none of implement.ciFix.branches`;
  return undefined;
}

