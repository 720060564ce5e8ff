/**
 * The learnings pull request (`/crewbot learn`, or a candidate that became due) and the list of
 * merged learnings (`/crewbot learnings`). `/crewbot learn` reports in its progress comment, which
 * ends with the pull request's link; an automatic proposal writes no comment at all (the pull
 * request is its report; the job's outcome and log say the rest). The list is one reply, no model.
 */
import { loadRepoConfig } from "../config/load.js";
import { CONFIG_PATH, type CrewbotConfig } from "../config/schema.js";
import { parseLearnings } from "../learnings/learnings-file.js";
import { openLearningsPull, readLearningsAt, type LearningsRepo } from "../learnings/learnings-branch.js";
import { renderLearningsList } from "../learnings/render-learnings.js";
import type { LearningsStore } from "../learnings/types.js";
import type { JobContext, JobResult } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import { inJobFrame } from "./job-frame.js";
import { checkSpend } from "./spend-check.js";
import { reasonOf } from "./job-surface.js";
import { proposeLearnings, type ProposeRun } from "./learn-propose.js";
import type { JobServices } from "./services.js";
import type { InstallationOctokit } from "../github/types.js";
import { repoKey } from "../review/review-store.js";
import { DAY_MS } from "../learnings/proposal.js";

export const LEARNINGS_OFF = `learnings are turned off for this repository (learnings.enabled: false in ${CONFIG_PATH})`;

/** How often a review used a learning, for `/crewbot learnings`: the last 30 days. */
export const USAGE_WINDOW_MS = 30 * DAY_MS;

/** The repository as the learnings need it; the default branch asked of GitHub when the job does not carry it (an automatic proposal). */
async function learningsRepo(job: JobRecord, octokit: InstallationOctokit): Promise<LearningsRepo> {
  const { owner, repo } = job.target;
  if (job.repo.defaultBranch) return { owner, repo, defaultBranch: job.repo.defaultBranch };
  const { data } = (await octokit.request("GET /repos/{owner}/{repo}", { owner, repo })) as { data: { default_branch: string } };
  return { owner, repo, defaultBranch: data.default_branch };
}

/** Why this repository's learnings cannot be used now, or its config and store. */
async function learningsGround(job: JobRecord, octokit: InstallationOctokit, services: JobServices): Promise<{ off: string } | { config: CrewbotConfig; store: LearningsStore; repo: LearningsRepo }> {
  const { config } = await loadRepoConfig(octokit, job.target);
  if (!config.learnings.enabled) return { off: LEARNINGS_OFF };
  return { config, store: services.records.learnings, repo: await learningsRepo(job, octokit) };
}

export async function runLearnJob(job: JobRecord, ctx: JobContext, services: JobServices): Promise<JobResult> {
  if (job.learn?.automatic) return runQuietly(job, ctx, services);
  return inJobFrame(job, ctx, services, async (report, dirs, access) => {
    const ground = await learningsGround(job, access.octokit, services);
    if ("off" in ground) return report.finish({ terminal: { kind: "failed", reason: ground.off } });
    await checkSpend(job, services, report, ground.config);
    const run: ProposeRun = { job, ctx, services, octokit: access.octokit, writer: report.writer, dirs, ...ground, all: true, emit: (event) => report.event(event) };
    const outcome = await proposeLearnings(run);
    if (outcome.failed) return report.finish(outcome.failed);
    const links = outcome.pull ? { links: { pr: { number: outcome.pull.number, url: outcome.pull.url } } } : {};
    return report.finish({ terminal: { kind: "done" }, patch: { notes: outcome.notes, ...links } });
  });
}

/**
 * A due candidate's proposal: no 👀, no progress comment (its surface is silent: the outcome is the
 * queue's record and a log line with the job id). The operator's limits and its cost count as for any job.
 */
async function runQuietly(job: JobRecord, ctx: JobContext, services: JobServices): Promise<JobResult> {
  return inJobFrame(job, ctx, services, async (report, dirs, access) => {
    const ground = await learningsGround(job, access.octokit, services);
    if ("off" in ground) return report.finish({ terminal: { kind: "done" }, outcome: `✅ Done: nothing proposed, ${ground.off}` });
    await checkSpend(job, services, report, ground.config);
    const outcome = await proposeLearnings({ job, ctx, services, octokit: access.octokit, writer: report.writer, dirs, ...ground, all: false, emit: (event) => report.event(event) });
    if (outcome.failed) return report.finish({ ...outcome.failed, outcome: `❌ Failed: ${reasonOf(outcome.failed.terminal)}` });
    return report.finish({ terminal: { kind: "done" }, outcome: `✅ Done: ${outcome.notes.join(" ")}`.slice(0, 500) });
  });
}

/** `/crewbot learnings`: one reply listing the merged learnings and their uses, and the open learnings pull request. */
export async function runLearningsListJob(job: JobRecord, ctx: JobContext, services: JobServices): Promise<JobResult> {
  return inJobFrame(job, ctx, services, async (report, _dirs, access) => {
    const ended = (state: "done" | "failed", answer: string, outcome: string) =>
      report.finish({ terminal: state === "done" ? { kind: "done" } : { kind: "failed", reason: outcome.replace(/^❌ Failed: /, "") }, patch: { answer }, outcome });
    try {
      const ground = await learningsGround(job, access.octokit, services);
      if ("off" in ground) return await ended("failed", `crewbot lists no learnings here: ${ground.off}.`, `❌ Failed: ${ground.off}`);
      const key = repoKey(job.target.owner, job.target.repo);
      const file = await readLearningsAt(access.octokit, ground.repo, ground.repo.defaultBranch);
      const learnings = parseLearnings(file ?? "").learnings;
      const [usage, lastUses, pull] = await Promise.all([ground.store.usage(key, Date.now() - USAGE_WINDOW_MS), ground.store.lastUses(key), openLearningsPull(access.octokit, ground.repo)]);
      const body = renderLearningsList({ defaultBranch: ground.repo.defaultBranch, learnings, usage, lastUses, ...(pull ? { pull } : {}) });
      return await ended("done", body, `✅ Done: listed ${learnings.length} learning(s)`);
    } catch (error) {
      // The list's own words for a failure; the frame's would name no list.
      const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0]!.slice(0, 300);
      return await ended("failed", `crewbot could not list the learnings: ${reason}`, `❌ Failed: ${reason}`);
    }
  });
}
