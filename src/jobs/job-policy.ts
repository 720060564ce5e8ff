/**
 * What a job may do and spend, decided once (in prepare.ts) from its type's row, whose code its
 * checkout is, and the repository's config: the frame, the chain run, the questions and the
 * repository's commands read this, never the config's keys or the trust again. Settings of one
 * feature (`review.paths`, `implement.check`, …) stay in the config its job reads.
 */
import type { Budgets } from "../agent/budget.js";
import type { CrewbotConfig } from "../config/schema.js";
import type { Mode } from "../tools/types.js";
import { checkoutPolicy, type CheckoutTrust } from "./checkout-trust.js";
import { writesCheckout, type JobType } from "./job-types.js";

export interface JobPolicy {
  /** `write` only for a type whose row writes (and prepare refused a writing job on a stranger's code). */
  mode: Mode;
  trust: CheckoutTrust;
  /** The job's limits, all agents together (`budgets`). */
  budgets: Budgets;
  /** A model per agent name, over the agent's own (`models`). */
  models: Record<string, string>;
  /** Network for the agents' commands and the `check` commands (`sandbox.network`), where commands run at all. */
  network: boolean;
  /** The default branch's merged learnings are read and given to the roles that take them (`learnings.enabled`). */
  learnings: boolean;
  /** The read-only steps may ask the requester (`ask.enabled`), and how long the job then waits for an answer (`ask.timeoutHours`). */
  questions: { allowed: boolean; timeoutHours: number };
  /** Its transcript opens without signing in: a public repository with `transcripts.public`. */
  publicTranscript: boolean;
}

export function jobPolicy(type: JobType, trust: CheckoutTrust, config: CrewbotConfig, repo: { private: boolean }): JobPolicy {
  return {
    mode: writesCheckout(type) ? "write" : "read-only",
    trust,
    budgets: config.budgets,
    models: config.models,
    // Network only where commands run at all: a stranger's checkout has no bash and runs no check.
    network: checkoutPolicy(trust).bash && config.sandbox.network,
    learnings: config.learnings.enabled,
    questions: { allowed: config.ask.enabled, timeoutHours: config.ask.timeoutHours },
    publicTranscript: config.transcripts.public && !repo.private,
  };
}
