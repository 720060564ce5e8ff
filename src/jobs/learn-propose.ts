/**
 * One learnings proposal: the due candidates worded by the learner and checked, the stale
 * learnings found, the file made from the default branch's (or, while its pull request is open,
 * from the branch's, so a person's edits there stay), committed on `crewbot/learnings` alone and
 * the one pull request opened or updated; the candidates it took are marked proposed.
 */
import type { AgentEvent } from "../agent/events.js";
import type { CrewbotConfig } from "../config/schema.js";
import type { InstallationOctokit } from "../github/types.js";
import { checkedLearnings } from "../learnings/learner-input.js";
import { parseLearnings } from "../learnings/learnings-file.js";
import { commitLearnings, fileAsOf, openLearningsPull, openOrUpdatePull, readBranchState, readLearningsAt, type LearningsPull, type LearningsRepo } from "../learnings/learnings-branch.js";
import { candidateLearningId, DAY_MS, dueCandidates, proposedFile, staleLearnings, startingFile } from "../learnings/proposal.js";
import { learningsCommitMessage, renderLearningsPullBody } from "../learnings/render-learnings.js";
import type { LearningsStore } from "../learnings/types.js";
import type { JobContext } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import type { GitHubWriter } from "../report/github-writer.js";
import { PeoplesText } from "../secrets/peoples-text.js";
import type { JobDirs } from "./job-dirs.js";
import { runLearner } from "./learner-run.js";
import type { Ending } from "./outcome.js";
import type { JobServices } from "./services.js";
import { repoKey } from "../review/review-store.js";

export interface ProposeRun {
  job: JobRecord;
  ctx: JobContext;
  services: JobServices;
  octokit: InstallationOctokit;
  writer: GitHubWriter;
  dirs: JobDirs;
  config: CrewbotConfig;
  store: LearningsStore;
  repo: LearningsRepo;
  /** `/crewbot learn`: every candidate not proposed yet; else only those that repeated `proposeAfter` times. */
  all: boolean;
  emit: (event: AgentEvent) => void;
}

export interface ProposeOutcome {
  failed?: Ending;
  notes: string[];
  pull?: LearningsPull;
  costUsd: number;
}

/** What the proposal starts from on GitHub: the branches, the open pull request, the files, the stale learnings. */
async function readGround(run: ProposeRun, now: number) {
  const { octokit, repo, config } = run;
  const state = await readBranchState(octokit, repo);
  const open = await openLearningsPull(octokit, repo);
  const onDefault = await readLearningsAt(octokit, repo, state.defaultSha);
  // The branch's file counts while its pull request is open; a closed one was refused or merged.
  const onBranch = open && state.branchSha ? await readLearningsAt(octokit, repo, state.branchSha) : undefined;
  const atBase = onBranch !== undefined && state.mergeBase ? await readLearningsAt(octokit, repo, state.mergeBase) : undefined;
  const merged = parseLearnings(onDefault ?? "");
  const cutoff = now - config.learnings.staleDays * DAY_MS;
  const then = merged.learnings.length > 0 ? await fileAsOf(octokit, repo, state.defaultSha, cutoff) : undefined;
  const heldThen = then === undefined ? undefined : new Set(parseLearnings(then).learnings.map((l) => l.id));
  const stale = staleLearnings(merged.learnings, { lastUses: await run.store.lastUses(repoKey(run.job.target.owner, run.job.target.repo)), heldThen, now, staleDays: config.learnings.staleDays });
  return { state, open, onDefault, onBranch, merged, stale, start: startingFile({ onDefault, onBranch, atBase }) };
}

export async function proposeLearnings(run: ProposeRun): Promise<ProposeOutcome> {
  const { job, config, store, repo } = run;
  const key = repoKey(job.target.owner, job.target.repo);
  const due = dueCandidates(await store.candidates(key), { all: run.all, proposeAfter: config.learnings.proposeAfter });
  const ground = await readGround(run, Date.now());
  const startIds = new Set(ground.start.learnings.map((l) => l.id));
  const fresh = due.filter((c) => !startIds.has(candidateLearningId(c.key)));
  let costUsd = 0;
  let checked = { added: [] as Array<{ id: string; text: string; key: string }>, refused: [] as string[], leftOut: [] as string[] };
  if (fresh.length > 0) {
    const learner = await runLearner({ ...run, candidates: fresh, currentFile: ground.onBranch ?? ground.onDefault });
    costUsd = learner.budget.costUsd;
    if (learner.failed) return { failed: learner.failed, notes: [], costUsd };
    checked = checkedLearnings(fresh, learner.submission!);
  }
  for (const why of checked.refused) run.services.observe.log.warn(`job ${job.id}: ${why}`);
  const removed = new Set(ground.stale.map((s) => s.learning.id).filter((id) => startIds.has(id)));
  const notes = [...checked.refused.map((why) => `Not proposed: ${why}.`), ...(checked.leftOut.length > 0 ? [`${checked.leftOut.length} candidate(s) the learner found nothing general in stay candidates.`] : [])];
  if (checked.added.length === 0 && removed.size === 0) {
    const where = ground.open ? ` The learnings pull request stays as it is: ${ground.open.url}` : "";
    const why = fresh.length > 0 ? `no learning came of the ${fresh.length} candidate(s)` : `no new candidate${run.all ? "" : " is due"}`;
    return { notes: [...notes, `Nothing to propose: ${why}, and no learning is stale.${where}`], costUsd, ...(ground.open ? { pull: ground.open } : {}) };
  }
  const content = proposedFile(ground.start, checked.added, removed);
  // The files read are people's: only the bullets crewbot adds are its own text.
  await commitLearnings(run.writer, repo, ground.state, PeoplesText.edited(content, ground.onBranch, ground.onDefault), learningsCommitMessage(checked.added.length, removed.size));
  const body = renderLearningsPullBody({ defaultBranch: repo.defaultBranch, onDefault: ground.merged, proposed: parseLearnings(content), stale: ground.stale, staleDays: config.learnings.staleDays });
  const pull = await openOrUpdatePull(run.writer, repo, ground.open, body, () => openLearningsPull(run.octokit, repo));
  if (checked.added.length > 0) await store.markProposed(key, checked.added.map((a) => a.key), pull.url);
  const counts = `${checked.added.length} new learning(s), ${removed.size} proposed for removal`;
  const said = `${pull.opened ? "Opened" : "Updated"} the learnings pull request (${counts}): ${pull.url}`;
  return { notes: [...notes, said], pull: { number: pull.number, url: pull.url }, costUsd };
}
