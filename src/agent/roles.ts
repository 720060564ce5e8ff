/**
 * The roles agents play (DESIGN §3): what an agent may do comes from its role, never from its
 * name. Every agent has one (`role` frontmatter; see agents.ts for a repository agent without it).
 * The tool registry (tools/registry.ts) offers a role's tools only to steps of that role, each
 * by its own rule there; the job reads a result through the parser it keeps for the role.
 * A new role is one row here.
 */
import type { ResultToolName, ToolName } from "../tools/registry.js";

export interface Role {
  /** Runs in write mode in a write chain (edit, write, a writable mount); never in a parallel step. */
  writes: boolean;
  /** The tool it hands its result over with (DESIGN §4); which job reads it, and how, is the job's. */
  result?: ResultToolName;
  /** Gets the repository's merged learnings as context (they shape reviews and plans). */
  learnings: boolean;
  /** Tools offered to this role alone besides its result tool (still under their registry rule). */
  extraTools: readonly ToolName[];
}

const ROLE_TABLE = {
  scout: { writes: false, learnings: false, extraTools: [] },
  planner: { writes: false, result: "submit_plan", learnings: true, extraTools: [] },
  worker: { writes: true, result: "complete_step", learnings: false, extraTools: [] },
  reviewer: { writes: false, result: "submit_review", learnings: true, extraTools: ["prove"] },
  answerer: { writes: false, learnings: false, extraTools: [] },
  describer: { writes: false, result: "submit_summary", learnings: false, extraTools: [] },
  learner: { writes: false, result: "submit_learnings", learnings: false, extraTools: [] },
} as const satisfies Record<string, Role>;

export type RoleName = keyof typeof ROLE_TABLE;

export const ROLES: Readonly<Record<RoleName, Role>> = ROLE_TABLE;

export const ROLE_NAMES = Object.keys(ROLE_TABLE) as RoleName[];

export const isRoleName = (name: string): name is RoleName => Object.hasOwn(ROLE_TABLE, name);

/**
 * The role of a repository's new agent that declares none: read-only, no result tool, no
 * learnings, nothing extra — what such an agent always got.
 */
export const DEFAULT_ROLE: RoleName = "scout";

/** The tools only this role is offered: its result tool and its extra tools. */
export function roleTools(role: RoleName): ToolName[] {
  const { result, extraTools } = ROLES[role];
  return [...(result ? [result] : []), ...extraTools];
}

/** The role of an agent: its own, or DEFAULT_ROLE for one made without a definition file. */
export const roleOf = (agent: { role?: RoleName }): RoleName => agent.role ?? DEFAULT_ROLE;
