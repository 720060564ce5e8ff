/**
 * How a write job's commits reach GitHub (`implement.commits`): a git push, or remade through the
 * Git Data API (signed by GitHub). When GitHub refuses the branch (a branch rule, a moved branch,
 * a missing permission), the commits are not lost: they are written to the job's artifacts as a
 * patch, and the comment says why and where they are.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { JobRecord } from "../queue/types.js";
import { transcriptUrl } from "../report/render.js";
import { pushViaApi } from "../workspace/api-commits.js";
import { git } from "../workspace/git.js";
import { pushBranch } from "../workspace/push.js";
import type { JobDirs } from "./job-dirs.js";
import type { Ending } from "./outcome.js";
import type { JobAccess, JobReport } from "./job-report.js";
import type { Prepared } from "./prepare.js";

/** The artifact holding the commits of a branch GitHub refused. */
export const REFUSED_COMMITS_ARTIFACT = "commits.patch";

export interface PublishOptions {
  job: JobRecord;
  report: Pick<JobReport, "writer">;
  access: Pick<JobAccess, "gitToken">;
  prepared: Pick<Prepared, "root" | "sha" | "config">;
  dirs: Pick<JobDirs, "artifactsDir">;
  /** `CREWBOT_PUBLIC_URL`, for the link to the kept commits. */
  publicUrl: string;
  branch: string;
  /** A pull request's own head branch: it exists on GitHub and may be pushed to. */
  prHeadBranch?: string;
}

export interface Published {
  /** False when nothing was committed, or when GitHub refused the branch (`refused`). */
  pushed: boolean;
  /** The branch's commit on GitHub (GitHub's own id with `implement.commits: api`). */
  sha: string;
  /** Local commit → GitHub's commit, when GitHub made them (API); empty for a git push. */
  remade: Record<string, string>;
  /** GitHub refused the branch: the reason for the comment, and where the commits are kept. */
  refused?: { reason: string; notes: string[] };
}

/** What a write chain left for publishing: its notes (added to here), and why it stopped or a check failed. */
export interface ChainOutcome {
  notes: string[];
  failed?: Ending;
  checkFailed?: string;
}

/**
 * A write job on a pull request's own head branch (PR feedback, fix findings, ci-fix): the commits
 * pushed there, a refusal told among the notes, and how the job ends — why the chain stopped first,
 * then a refused push, then no change at all (`unchanged` says it), then a failed check.
 */
export async function publishToPullRequest(
  options: Omit<PublishOptions, "branch" | "prHeadBranch"> & { headRef: string; run: ChainOutcome; unchanged: string },
): Promise<{ pushed: Published; ending: Ending }> {
  const { headRef, run, unchanged, ...publish } = options;
  const pushed = await publishBranch({ ...publish, branch: headRef, prHeadBranch: headRef });
  if (pushed.refused) run.notes.push(...(run.failed ? [`The branch was not pushed: ${pushed.refused.reason}`] : []), ...pushed.refused.notes);
  const ending: Ending =
    run.failed ??
    (pushed.refused
      ? { terminal: { kind: "failed", reason: pushed.refused.reason } }
      : !pushed.pushed
        ? { terminal: { kind: "failed", reason: unchanged } }
        : run.checkFailed
          ? { terminal: { kind: "failed", reason: run.checkFailed } }
          : { terminal: { kind: "done" } });
  return { pushed, ending };
}

/** Pushes (or remakes through the API) the checkout's commits since the job's start onto `branch`. */
export async function publishBranch(options: PublishOptions): Promise<Published> {
  const { job, report, prepared, branch } = options;
  const target = { branch, defaultBranch: job.repo.defaultBranch, prHeadBranch: options.prHeadBranch };
  try {
    if (prepared.config.implement.commits === "api") {
      const { owner, repo } = job.target;
      const exists = options.prHeadBranch !== undefined && options.prHeadBranch === branch;
      return await pushViaApi({ ...target, checkout: prepared.root, owner, repo, writer: report.writer, base: prepared.sha, exists });
    }
    const pushed = await pushBranch({ ...target, checkout: prepared.root, cloneUrl: job.repo.cloneUrl, token: options.access.gitToken, base: prepared.sha });
    return { ...pushed, remade: {} };
  } catch (error) {
    const kept = await keepCommits(options).catch(() => undefined);
    const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
    const where = kept
      ? `The ${kept.count === 1 ? "commit is" : `${kept.count} commits are`} kept in this job's artifacts: ${kept.url} (apply with \`git am\`)`
      : "The commits could not be kept: they are lost with the job's checkout";
    return { pushed: false, sha: prepared.sha, remade: {}, refused: { reason, notes: [where] } };
  }
}

/** `git format-patch` of the job's commits into the artifacts (text, so the transcript page shows it). */
async function keepCommits(options: PublishOptions): Promise<{ count: number; url: string } | undefined> {
  const opts = { cwd: options.prepared.root, workspace: true };
  const range = `${options.prepared.sha}..HEAD`;
  const count = Number((await git(["rev-list", "--count", "--end-of-options", range, "--"], opts)).trim());
  if (!count) return undefined;
  const patch = await git(["format-patch", "--stdout", "--binary", "--no-signature", "--end-of-options", range, "--"], { ...opts, maxBuffer: 256 * 1024 * 1024 });
  await writeFile(path.join(options.dirs.artifactsDir, REFUSED_COMMITS_ARTIFACT), patch);
  return { count, url: `${transcriptUrl(options.publicUrl, options.job.id)}/artifacts/${REFUSED_COMMITS_ARTIFACT}` };
}
