/**
 * A job's preparation: its checkout's trust, the repository's config, the mirror and checkout,
 * and the default branch's definitions and instructions; and which write chain it then runs.
 */
import path from "node:path";
import { WRITER_AGENT } from "../chain/chains.js";
import { chainMode, isWritingStep } from "../chain/run-chain.js";
import { DefinitionError, type AgentDefinition, type ChainDefinition } from "../chain/types.js";
import type { ContextSection } from "../text/prompt.js";
import { loadDefinitions, type Definitions } from "../chain/definitions.js";
import { REPO_RULES_DIR } from "../chain/rules.js";
import { loadRepoConfig } from "../config/load.js";
import { checkSpend } from "./spend-check.js";
import { CONFIG_PATH, type CrewbotConfig } from "../config/schema.js";
import { ConfigError } from "../config/validate.js";
import { issueContext } from "../context/issue-context.js";
import { readRepoLearnings, type RepoLearnings } from "../context/learnings-context.js";
import { LEARNINGS_PATH } from "../learnings/types.js";
import { linkedTickets, type LinkedTickets } from "./linked-tickets.js";
import { isCommandKind } from "../queue/job-kinds.js";
import type { JobRecord } from "../queue/types.js";
import { makeCheckout } from "../workspace/checkout.js";
import { readDefaultBranchFiles, SKILL_TREES } from "./default-branch.js";
import { detectRepoFeatures, featureNotes } from "../workspace/repo-features.js";
import { resolveCheckoutTrust, trustRefusal } from "./checkout-trust.js";
import { jobPolicy, type JobPolicy } from "./job-policy.js";
import type { JobDirs } from "./job-dirs.js";
import { jobInstructions, touchedFiles } from "./job-instructions.js";
import { jobTypeOf } from "./job-types.js";
import type { JobAccess, JobReport } from "./job-report.js";
import type { JobServices } from "./services.js";

export interface Prepared extends Definitions {
  /** realpath of the job's checkout. */
  root: string;
  /** The commit checked out. */
  sha: string;
  /** What the job may do and spend, from its type, whose code the checkout is (a stranger's gets no bash, setup or check) and the config. */
  policy: JobPolicy;
  /** What the agents read as data: repository instructions, then the issue or PR. */
  context: ContextSection[];
  /** `.github/crewbot.yml` of the default branch (or the organisation's), defaults filled in. */
  config: CrewbotConfig;
  /** What the checkout lacks (submodules, LFS content), for the final comment; also in `context`. */
  notes: string[];
  /** Which repository instructions `context` holds, for whom, and what was left out (jobs/job-instructions.ts), for the transcript. */
  instructions: readonly string[];
  /** The default branch's merged learnings, for the reviewer and the planner (absent with `learnings.enabled: false`). */
  learnings?: RepoLearnings;
  /** Tickets the issue or PR links to that an operator MCP server reads, for the chain's context (jobs/job-frame.ts). */
  linkedTickets: LinkedTickets;
}

/** A command the repository's config turned off ends the job before anything is cloned. */
export function assertCommandOn(job: JobRecord, config: CrewbotConfig): void {
  // A kind no command starts (ci-fix: `implement.ciFix.rounds` decides it) is not switched by `commands`;
  // nor is an automatic review (`review.auto`, see review/skip.ts) or "Fix these findings" (`review.fixAction`).
  if (!isCommandKind(job.kind) || job.fixFindings || config.commands[job.kind] || job.review?.automatic) return;
  throw new Error(`/${job.kind} is turned off for this repository (commands.${job.kind}: false in ${CONFIG_PATH})`);
}

/**
 * A job's ground: the mirror brought up to date, a fresh checkout (the default branch for an
 * issue, the head for a PR), and the agents, chains and instructions of the DEFAULT branch.
 */
export interface PrepareOptions {
  /** Config already loaded by the job, which has checked its monthly cap with it (`checkSpend`, or the frame's `begin(config)`). */
  config?: CrewbotConfig;
  /** What to check out instead of the default (a PR's exact head commit). */
  ref?: string;
  /** Runs while the mirror is up to date and held (a review's diffs are read there). */
  withMirror?: (mirror: string) => Promise<void>;
  /** More commits `withMirror` diffs (a review's last reviewed head): their files are fetched into a partial mirror too. */
  hydrate?: string[];
  /** The PR head's `owner/repo`, when the job read the PR already (null: the fork is gone); else found by `resolveCheckoutTrust`. */
  headRepo?: string | null;
  /** The files the job touches or reviews, once `withMirror` ran, for their nested instructions; default: a PR's changed files. */
  touches?: () => readonly string[];
}

export async function prepareJob(
  job: JobRecord,
  /** How to read the repository; `report`, when given, hears what the checkout lacks. */
  opened: { access: Pick<JobAccess, "octokit" | "token">; report?: Pick<JobReport, "set"> },
  services: JobServices,
  dirs: JobDirs,
  options: PrepareOptions = {},
): Promise<Prepared> {
  const { owner, repo, number, isPullRequest } = job.target;
  const { access, report } = opened;
  // Before anything is read or cloned: a write job never runs on a stranger's code.
  const trust = await resolveCheckoutTrust(job, access.octokit, options.headRepo);
  const type = jobTypeOf(job);
  const refusal = trustRefusal(type, trust);
  if (refusal) throw new Error(refusal);
  let config = options.config;
  if (!config) {
    config = (await loadRepoConfig(access.octokit, { owner, repo })).config;
    // The repository's monthly cap, known now: before anything is cloned or asked of a model.
    await checkSpend(job, services, report, config);
  }
  assertCommandOn(job, config);
  const policy = jobPolicy(type, trust, config, job.repo);
  if (policy.publicTranscript) services.observe.transcripts.makePublic(job.id);
  const defaultsDir = path.join(dirs.workDir, "default-branch");
  const ref = options.ref ?? (isPullRequest ? `refs/pull/${number}/head` : job.repo.defaultBranch);
  // A PR's head is fetched for this job only; a large repository's files only for what is checked out.
  const lease = await services.runtime.mirrors.sync({
    owner,
    repo,
    cloneUrl: job.repo.cloneUrl,
    token: access.token,
    defaultBranch: job.repo.defaultBranch,
    sizeKb: job.repo.size,
    pulls: isPullRequest ? [number] : [],
    hydrate: [ref, ...(options.hydrate ?? [])],
  });
  const log = { jobId: job.id, warn: (line: string) => services.observe.log.warn(line) };
  let checkout;
  let defaults;
  let touched;
  try {
    checkout = await makeCheckout({ mirror: lease.path, ref, dest: path.join(dirs.workDir, "checkout"), cloneUrl: job.repo.cloneUrl });
    defaults = await readDefaultBranchFiles(lease.path, job.repo.defaultBranch, defaultsDir);
    await options.withMirror?.(lease.path);
    touched = await touchedFiles(lease.path, job, { head: checkout.sha, defaultBranch: defaults.sha }, options.touches, log);
  } finally {
    await lease.release();
  }
  refuseSkippedRules(defaults.skipped);
  const definitions = await loadDefinitions(defaultsDir);
  const instructions = await jobInstructions(defaultsDir, defaults, job, config, touched, log);
  const learnings = policy.learnings ? await readRepoLearnings(defaultsDir, defaults, log) : undefined;
  const tickets = await linkedTickets(job, access, services);
  const notes = [
    ...featureNotes(await detectRepoFeatures(checkout.path)),
    ...(tickets.note ? [tickets.note] : []),
    ...skillNotes(defaults.skipped, definitions.skills?.notes ?? []),
    ...instructions.notes,
    ...(learnings?.notes ?? []),
  ];
  if (notes.length > 0) report?.set({ notes });
  const lacks = notes.length > 0 ? [{ source: "what the checkout lacks", text: notes.join("\n") }] : [];
  const context = [...instructions.sections, ...lacks, ...(await issueContext(access.octokit, job, services.github.permissions))];
  const applied = learnings?.section ? [...instructions.applied, learningsLine(learnings)] : instructions.applied;
  return { ...definitions, root: checkout.path, sha: checkout.sha, policy, context, config, notes, instructions: applied, ...(learnings ? { learnings } : {}), linkedTickets: tickets.tickets };
}

/** The transcript's line for the learnings given. */
function learningsLine(learnings: RepoLearnings): string {
  const n = learnings.learnings.length;
  return `${LEARNINGS_PATH} (default branch): ${n} learning${n === 1 ? "" : "s"}, for the reviewer and the planner`;
}

/** A rule file the default branch could not give (symlink, too large) fails the job like a broken one, by name. */
function refuseSkippedRules(skipped: readonly { path: string; reason: string }[]): void {
  const rule = skipped.find((s) => s.path === REPO_RULES_DIR || s.path.startsWith(`${REPO_RULES_DIR}/`));
  if (rule) throw new DefinitionError(rule.path, "file", `refused: ${rule.reason}`);
}

/** Skills skipped on the default branch (a symlinked or oversized file) or when loaded, each naming its file. */
function skillNotes(skipped: readonly { path: string; reason: string }[], loaded: readonly string[]): string[] {
  const fromTree = skipped.filter((s) => SKILL_TREES.some((tree) => s.path === tree || s.path.startsWith(`${tree}/`)));
  return [...fromTree.map((s) => `${s.path}: skipped (${s.reason})${s.path.endsWith("/SKILL.md") ? "; that skill is not offered" : ""}`), ...loaded];
}

/**
 * The configured write chain from its worker on, with the worker's task replaced: for work whose
 * plan is already known (an approved plan, a PR's feedback), without new scout or planner steps.
 */
export function fromWorker(configured: ChainDefinition, name: string, task: string, agents: ReadonlyMap<string, AgentDefinition>): ChainDefinition {
  const worker = configured.steps.findIndex((step) => isWritingStep(step, agents));
  const agent = configured.steps[worker]?.agent ?? WRITER_AGENT;
  return { name, file: "(built in)", steps: [{ agent, task }, ...configured.steps.slice(worker + 1)] };
}

/** `implement.chain` of the config: a chain of the repository or a bundled one, with a worker step. */
export function implementChain(prepared: Prepared): ChainDefinition {
  const name = prepared.config.implement.chain;
  const chain = prepared.chains.get(name);
  const available = [...prepared.chains.values()].filter((c) => chainMode(c, prepared.agents) === "write").map((c) => c.name).sort();
  if (!chain || chainMode(chain, prepared.agents) !== "write") {
    const problem = chain ? `the chain "${name}" has no worker step` : `there is no chain "${name}"`;
    throw new ConfigError(CONFIG_PATH, [`\`implement.chain\`: expected a chain with a worker step (${available.join(", ")}); ${problem}`]);
  }
  return chain;
}
