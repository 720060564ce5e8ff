import type { ToolName } from "../tools/registry.js";
import type { RoleName } from "../agent/roles.js";

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
