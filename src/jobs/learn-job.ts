/**
 * The learnings pull request (`/crewbot learn`, or a candidate that became due) and the list of
 * merged learnings (`/crewbot learnings`). `/crewbot learn` reports in its progress comment, which
 * ends with the pull request's link; an automatic proposal writes no comment at all (the pull
 * request is its report; the job's outcome and log say the rest). The list is one reply, no model.
 */
import { loadRepoConfig } from "../config/load.js";
import { CONFIG_PATH, type CrewbotConfig } from "../config/schema.js";
import { limitReached } from "../installations/limits.js";
import { parseLearnings } from "../learnings/learnings-file.js";
import { openLearningsPull, readLearningsAt, type LearningsRepo } from "../learnings/learnings-branch.js";
import { renderLearningsList } from "../learnings/render-learnings.js";
import type { LearningsStore } from "../learnings/types.js";
import type { JobContext, JobResult } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import type { GitHubWriter } from "../report/github-writer.js";
import { postReply } from "../report/progress-reporter.js";
import { cleanJobDirs, makeJobDirs, type JobDirs } from "./job-dirs.js";
import { inJobFrame } from "./job-frame.js";
import { failure } from "./outcome.js";
import { proposeLearnings, type ProposeRun } from "./learn-propose.js";
import type { JobServices } from "./services.js";
import type { InstallationOctokit } from "../github/types.js";
import { repoKey } from "../review/review-store.js";
import { DAY_MS } from "../learnings/proposal.js";

export const LEARNINGS_OFF = `learnings are turned off for this repository (learnings.enabled: false in ${CONFIG_PATH})`;
export const NO_STORE = "this crewbot keeps no learnings (its store has none)";

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
  if (!services.learnings) return { off: NO_STORE };
  return { config, store: services.learnings, repo: await learningsRepo(job, octokit) };
}

export async function runLearnJob(job: JobRecord, ctx: JobContext, services: JobServices): Promise<JobResult> {
  if (job.learn?.automatic) return runQuietly(job, ctx, services);
  return inJobFrame(job, ctx, services, async (report, dirs, access) => {
    const ground = await learningsGround(job, access.octokit, services);
    if ("off" in ground) return report.finish({ terminal: { kind: "failed", reason: ground.off } });
    const run: ProposeRun = { job, ctx, services, octokit: access.octokit, writer: report.writer, dirs, ...ground, all: true, emit: (event) => report.event(event) };
    const outcome = await proposeLearnings(run);
    if (outcome.failed) return report.finish(outcome.failed);
    const links = outcome.pull ? { links: { pr: { number: outcome.pull.number, url: outcome.pull.url } } } : {};
    return report.finish({ terminal: { kind: "done" }, patch: { notes: outcome.notes, ...links } });
  });
}

/**
 * A due candidate's proposal: no 👀, no progress comment. The operator's limits and the job's
 * cost count as for any job; the outcome is the queue's record and a log line with the job id.
 */
async function runQuietly(job: JobRecord, ctx: JobContext, services: JobServices): Promise<JobResult> {
  const { installationId } = job.target;
  const octokit = await services.octokitFor(installationId);
  const token = await services.tokenFor(octokit);
  const writer = services.writerFor(installationId, octokit, [token]);
  services.transcripts?.begin(job, [token]);
  let dirs: JobDirs | undefined;
  let costUsd = 0;
  try {
    const limit = await limitReached(services.limits, services.usage, installationId);
    if (limit) return ended(job, services, "failed", `❌ Failed: ${limit}`);
    await services.usage.recordStart(installationId, job.id, Date.now());
    dirs = await makeJobDirs(services.dataDir, job.id);
    const ground = await learningsGround(job, octokit, services);
    if ("off" in ground) return ended(job, services, "succeeded", `✅ Done: nothing proposed, ${ground.off}`);
    const outcome = await proposeLearnings({ job, ctx, services, octokit, writer, dirs, ...ground, all: false, emit: (event) => services.transcripts?.append(job.id, event) });
    costUsd = outcome.costUsd;
    if (outcome.failed) return ended(job, services, "failed", `❌ Failed: ${reasonOf(outcome.failed.terminal)}`);
    return ended(job, services, "succeeded", `✅ Done: ${outcome.notes.join(" ")}`.slice(0, 500));
  } catch (error) {
    return ended(job, services, "failed", `❌ Failed: ${reasonOf(failure(error, ctx.signal).terminal)}`);
  } finally {
    if (dirs) await cleanJobDirs(dirs).catch(() => undefined);
    if (costUsd > 0) await services.usage.recordCost(installationId, job.id, costUsd).catch(() => undefined);
  }
}

const reasonOf = (t: { kind: string; reason?: string; budget?: string }) => t.reason ?? t.budget ?? t.kind;

async function ended(job: JobRecord, services: JobServices, state: "succeeded" | "failed", outcome: string): Promise<JobResult> {
  (state === "failed" ? services.log.warn : services.log.info).call(services.log, `job ${job.id}: learnings of ${job.target.owner}/${job.target.repo}: ${outcome}`);
  await services.transcripts?.end(job.id, state === "failed" ? { kind: "failed", reason: outcome } : { kind: "done" }, outcome);
  return { state, outcome };
}

/** `/crewbot learnings`: one reply listing the merged learnings and their uses, and the open learnings pull request. */
export async function runLearningsListJob(job: JobRecord, _ctx: JobContext, services: JobServices): Promise<JobResult> {
  const { installationId, owner, repo, number } = job.target;
  const octokit = await services.octokitFor(installationId);
  const token = await services.tokenFor(octokit);
  const writer: GitHubWriter = services.writerFor(installationId, octokit, [token]);
  services.transcripts?.begin(job, [token]);
  const reply = async (body: string, state: "succeeded" | "failed", outcome: string): Promise<JobResult> => {
    await postReply(writer, { owner, repo, number }, body, services.log);
    return ended(job, services, state, outcome);
  };
  try {
    const ground = await learningsGround(job, octokit, services);
    if ("off" in ground) return await reply(`crewbot lists no learnings here: ${ground.off}.`, "failed", `❌ Failed: ${ground.off}`);
    const key = repoKey(job.target.owner, job.target.repo);
    const file = await readLearningsAt(octokit, ground.repo, ground.repo.defaultBranch);
    const learnings = parseLearnings(file ?? "").learnings;
    const [usage, lastUses, pull] = await Promise.all([ground.store.usage(key, Date.now() - USAGE_WINDOW_MS), ground.store.lastUses(key), openLearningsPull(octokit, ground.repo)]);
    const body = renderLearningsList({ defaultBranch: ground.repo.defaultBranch, learnings, usage, lastUses, ...(pull ? { pull } : {}) });
    return await reply(body, "succeeded", `✅ Done: listed ${learnings.length} learning(s)`);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0]!.slice(0, 300);
    return await reply(`crewbot could not list the learnings: ${reason}`, "failed", `❌ Failed: ${reason}`).catch(() => ended(job, services, "failed", `❌ Failed: ${reason}`));
  }
}
