import path from "node:path";
import type { ContextSection } from "../chain/prompt.js";
import { loadDefinitions, type Definitions } from "../chain/definitions.js";
import { issueContext } from "../context/issue-context.js";
import { readRepoInstructions } from "../context/repo-instructions.js";
import type { JobRecord } from "../queue/types.js";
import { makeCheckout } from "../workspace/checkout.js";
import { readDefaultBranchFiles } from "../workspace/default-branch.js";
import type { JobDirs } from "./job-dirs.js";
import type { JobReport } from "./job-report.js";
import type { JobServices } from "./services.js";

export interface Prepared extends Definitions {
  /** realpath of the job's checkout. */
  root: string;
  /** The commit checked out. */
  sha: string;
  /** What the agents read as data: repository instructions, then the issue or PR. */
  context: ContextSection[];
}

/**
 * A job's ground: the mirror brought up to date, a fresh checkout (the default branch for an
 * issue, the head for a PR), and the agents, chains and instructions of the DEFAULT branch.
 */
export async function prepareJob(job: JobRecord, report: JobReport, services: JobServices, dirs: JobDirs): Promise<Prepared> {
  const { owner, repo, number, isPullRequest } = job.target;
  const defaultsDir = path.join(dirs.workDir, "default-branch");
  const lease = await services.mirrors.sync({ owner, repo, cloneUrl: job.repo.cloneUrl, token: report.token, defaultBranch: job.repo.defaultBranch });
  let checkout;
  try {
    const ref = isPullRequest ? `refs/pull/${number}/head` : job.repo.defaultBranch;
    checkout = await makeCheckout({ mirror: lease.path, ref, dest: path.join(dirs.workDir, "checkout"), cloneUrl: job.repo.cloneUrl });
    await readDefaultBranchFiles(lease.path, job.repo.defaultBranch, defaultsDir);
  } finally {
    await lease.release();
  }
  const definitions = await loadDefinitions(defaultsDir);
  const context = [...(await readRepoInstructions(defaultsDir)), ...(await issueContext(report.octokit, job))];
  return { ...definitions, root: checkout.path, sha: checkout.sha, context };
}
