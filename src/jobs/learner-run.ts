/**
 * The learner's one step: crewbot's own bundled agent (a repository cannot replace it: its words
 * go into a file the team reviews, and are checked before that), read-only, with no file tools —
 * only `submit_learnings` — in an empty folder, its context the candidates as data.
 */
import { mkdir, realpath } from "node:fs/promises";
import path from "node:path";
import { BudgetTracker } from "../agent/budget.js";
import type { AgentEvent } from "../agent/events.js";
import { BUNDLED_AGENTS_DIR, loadAgents } from "../chain/agents.js";
import { runChain } from "../chain/run-chain.js";
import type { AgentDefinition, ChainDefinition } from "../chain/types.js";
import type { CrewbotConfig } from "../config/schema.js";
import { LEARNER_TASK, learnerContext } from "../learnings/learner-input.js";
import type { Candidate } from "../learnings/types.js";
import type { JobContext } from "../queue/runner.js";
import type { LearningsSubmission } from "../tools/submit-learnings.js";
import type { JobRecord } from "../queue/types.js";
import type { JobDirs } from "./job-dirs.js";
import { jobPolicy } from "./job-policy.js";
import { jobTypeOf } from "./job-types.js";
import { chainFailure, type Ending } from "./outcome.js";
import type { JobServices } from "./services.js";

export const LEARNER = "learner";
export const LEARN_CHAIN: ChainDefinition = { name: "learn", steps: [{ agent: LEARNER, task: "{task}" }], file: "(built in: the learnings pull request)" };

/** The learner as it runs: its bundled definition with no file tools (its context holds all it reads). */
export const learnerAgent = (definition: AgentDefinition): AgentDefinition => ({ ...definition, tools: [] });

export interface LearnerOutcome {
  submission?: LearningsSubmission;
  failed?: Ending;
  budget: BudgetTracker;
}

export async function runLearner(o: {
  job: JobRecord;
  ctx: JobContext;
  services: JobServices;
  config: CrewbotConfig;
  dirs: JobDirs;
  candidates: readonly Candidate[];
  currentFile: string | undefined;
  emit: (event: AgentEvent) => void;
}): Promise<LearnerOutcome> {
  const learner = (await loadAgents([BUNDLED_AGENTS_DIR])).get(LEARNER);
  if (!learner) throw new Error("the bundled learner agent is missing");
  const root = path.join(o.dirs.workDir, "learner");
  await mkdir(root, { recursive: true });
  await o.ctx.update({ agentsStarted: true });
  // Its context is other people's words, and it has no checkout: a stranger's trust (no commands), whatever the job.
  const policy = jobPolicy(jobTypeOf(o.job), "stranger", o.config, o.job.repo);
  const budget = new BudgetTracker(policy.budgets);
  const result = await runChain({
    chain: LEARN_CHAIN,
    // No file tools: everything it needs is in its context.
    agents: new Map([[LEARNER, learnerAgent(learner)]]),
    task: LEARNER_TASK,
    context: learnerContext(o.candidates, o.currentFile),
    mode: policy.mode,
    trust: policy.trust,
    workspace: { root: await realpath(root), artifactsDir: o.dirs.artifactsDir, scratchDir: o.dirs.scratchDir },
    sandbox: await o.services.runtime.sandbox(),
    budget,
    models: policy.models,
    client: o.services.runtime.anthropic(),
    signal: o.ctx.signal,
    emit: o.emit,
  });
  const failed = chainFailure(result, o.ctx.signal, budget.limits);
  if (failed) return { failed, budget };
  const step = result.steps.findLast((s) => s.role === "learner");
  if (step?.submission?.tool !== "submit_learnings") return { failed: { terminal: { kind: "failed", reason: "the learner gave no learnings (it did not call submit_learnings)" } }, budget };
  return { submission: step.submission.value as LearningsSubmission, budget };
}
