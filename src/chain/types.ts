import type { Proof } from "../tools/prove.js";
import type { ToolName } from "../tools/types.js";
import type { RoleName } from "./roles.js";

/** An agent: markdown with YAML frontmatter; the body is the system prompt. */
export interface AgentDefinition {
  name: string;
  description: string;
  /** What it may do (roles.ts); set on every loaded agent, absent only from a file that declares none. */
  role?: RoleName;
  /** Narrows the tools the mode offers; undefined = all the mode offers. */
  tools?: ToolName[];
  model?: string;
  /** Caps this agent alone; the job's budgets cap all agents together. */
  maxTurns?: number;
  /** Extended thinking's token budget per reply (at least 1024); unset: no thinking. */
  thinking?: number;
  prompt: string;
  /** The file it came from, for error messages. */
  file: string;
}

/** One `agent: task` line of a chain; the task may use {task} and {previous}. */
export interface ChainStep {
  agent: string;
  task: string;
  /** A `parallel:` step (agent `parallel`, no task of its own): these items run at once. */
  parallel?: ChainStep[];
}

export interface ChainDefinition {
  name: string;
  description?: string;
  steps: ChainStep[];
  file: string;
}

export interface PlanStep {
  /** 1-based, in order of appearance (the planner's own numbers are not trusted). */
  n: number;
  text: string;
}

export interface ParsedPlan {
  goal?: string;
  steps: PlanStep[];
  filesToModify: string[];
  risks?: string;
}

export type Severity = "critical" | "warning" | "suggestion";

export interface Finding {
  path: string;
  line: number;
  /** Set for a range `:40-45`. */
  endLine?: number;
  severity: Severity;
  text: string;
  /** The replacement text for `line..endLine` when the reviewer gave a concrete fix (kept as data; not rendered yet). */
  suggestion?: string;
  /** The kind of finding, a few words (`submit_review`'s `kind`); absent in a review given as text. */
  kind?: string;
  /** Its reproducer (`prove`) and what it showed; set by the review job, never by the model's text. */
  proof?: Proof;
  /** The severity a reproducer that did not reproduce downgraded it from. */
  refuted?: Severity;
  /** The id of the repository learning the reviewer says shaped it (submit_review). */
  learning?: string;

  /** Read by crewbot itself (the dependency pass, from published tarballs), not the reviewer's claim: no reproducer applies. */
  fact?: true;
}

/**
 * What the reviewer wrote under a severity header without a usable `path:line` (a bullet or a
 * paragraph): kept with its severity so nothing the reviewer said is lost; belongs in the review body.
 */
export interface ReviewNote {
  severity: Severity;
  text: string;
}

export interface ParsedReview {
  findings: Finding[];
  summary: string;
  /** Set by parseReview (possibly empty). */
  notes?: ReviewNote[];
  /** The repository learnings the reviewer says it applied (submit_review), with the findings each kept out. */
  learnings?: AppliedLearning[];
}

export interface AppliedLearning {
  id: string;
  /** Findings it kept the reviewer from posting. */
  suppressed: number;
}

/** A broken agent or chain file: names the file and the field. */
export class DefinitionError extends Error {
  override name = "DefinitionError";
  constructor(
    readonly file: string,
    readonly field: string,
    problem: string,
  ) {
    super(`${file}: ${field}: ${problem}`);
  }
}
