/**
 * Every tool an agent can have (DESIGN §4), in the order they are offered, each with the rule that
 * offers it. `ToolName` is this table's keys; `toolsFor` (index.ts) offers by these rules, and an
 * agent's `tools` frontmatter (chain/agents.ts) may list the `listable` ones, which narrows them.
 * A new tool is one file in tools/ and one row here; a tool for one role is a `byRole` row, named
 * in that role's row of agent/roles.ts. Roles are the table's business: no agent name is read here.
 */
import { askUserTool } from "./ask-user.js";
import { createBashTool } from "./bash.js";
import { completeStepTool } from "./complete-step.js";
import { editTool } from "./edit.js";
import { findTool } from "./find.js";
import { grepTool } from "./grep.js";
import { lsTool } from "./ls.js";
import { proveTool } from "./prove.js";
import { readTool } from "./read.js";
import { scratchWriteTool } from "./scratch-write.js";
import { skillTool } from "./skill.js";
import { submitLearningsTool } from "./submit-learnings.js";
import { submitPlanTool } from "./submit-plan.js";
import { submitReviewTool } from "./submit-review.js";
import { submitSummaryTool } from "./submit-summary.js";
import type { CheckoutTrust, Mode, SandboxInfo, Tool } from "./types.js";
import { writeTool } from "./write.js";

export interface ToolsForOptions {
  sandbox: SandboxInfo;
  allow?: readonly string[];
  /** A stranger's checkout (a fork's pull request) gets no `bash`, sandbox or not. */
  trust: CheckoutTrust;
  /** The tools the step's role alone is offered (agent/roles.ts): a `byRole` row goes only to a step whose role lists it. */
  roleTools?: readonly string[];
  /** The worker's task has a numbered plan: it gets `complete_step`. */
  numberedPlan?: boolean;
  /** The repository has skills: the `skill` tool is offered (in every mode; `allow` does not narrow it). */
  hasSkills?: boolean;
  /** The run has a `local://` scratch space: `scratch_write` is offered (in every mode; `allow` does not narrow it). */
  scratch?: boolean;
  /** The review may run proofs (`review.prove: auto`, not a fork's PR): the reviewer gets `prove` where it also has bash. */
  prove?: boolean;
  /** The step may put a question to its requester (`ask.enabled`, a read-only step before any writing one): it gets `ask_user`. */
  questions?: boolean;
}

export interface ToolEntry {
  /** The tool for a mode and sandbox (only bash is made anew: it describes how its commands run). */
  make(mode: Mode, sandbox: SandboxInfo): Tool;
  /** May be listed in an agent's `tools`; a `tools` list narrows only these, never the others. */
  listable: boolean;
  /** Never offered in read-only mode, whatever an agent's `tools` asks for. */
  writes?: boolean;
  /** Offered only where this listable tool is offered too (after `tools` narrowed it). */
  requires?: string;
  /** A result tool (DESIGN §4): the agent hands its result over with it. */
  result?: boolean;
  /** Offered only to a step whose role lists it (`ToolsForOptions.roleTools`), never by name or frontmatter. */
  byRole?: boolean;
  /** Whether a step of this mode and these options is offered the tool. */
  offered(mode: Mode, opts: ToolsForOptions): boolean;
}

const always = () => true;
const inWriteMode = (mode: Mode) => mode === "write";
const readOnly = (mode: Mode) => mode === "read-only";
/** No sandbox, no commands — unless the operator explicitly allowed running without one (write mode only); a fork's code never runs. */
const mayRunCommands = (mode: Mode, o: ToolsForOptions) => o.trust === "trusted" && (o.sandbox.available || (mode === "write" && o.sandbox.allowUnsandboxed === true));
const fixed = (tool: Tool) => () => tool;

const REGISTRY = {
  read: { make: fixed(readTool), listable: true, offered: always },
  ls: { make: fixed(lsTool), listable: true, offered: always },
  find: { make: fixed(findTool), listable: true, offered: always },
  grep: { make: fixed(grepTool), listable: true, offered: always },
  bash: { make: createBashTool, listable: true, offered: mayRunCommands },
  edit: { make: fixed(editTool), listable: true, writes: true, offered: inWriteMode },
  write: { make: fixed(writeTool), listable: true, writes: true, offered: inWriteMode },
  skill: { make: fixed(skillTool), listable: false, offered: (_mode, o) => o.hasSkills === true },
  scratch_write: { make: fixed(scratchWriteTool), listable: false, offered: (_mode, o) => o.scratch === true },
  /** `prove` runs the commands of a role that has it (the reviewer), so only where bash went, read-only, on a trusted checkout. */
  prove: {
    make: fixed(proveTool),
    listable: false,
    requires: "bash",
    byRole: true,
    offered: (mode, o) => o.prove === true && o.trust === "trusted" && mode === "read-only" && o.sandbox.available,
  },
  complete_step: { make: fixed(completeStepTool), listable: false, result: true, byRole: true, offered: (mode, o) => mode === "write" && o.numberedPlan === true },
  submit_plan: { make: fixed(submitPlanTool), listable: false, result: true, byRole: true, offered: readOnly },
  submit_review: { make: fixed(submitReviewTool), listable: false, result: true, byRole: true, offered: readOnly },
  submit_summary: { make: fixed(submitSummaryTool), listable: false, result: true, byRole: true, offered: readOnly },
  submit_learnings: { make: fixed(submitLearningsTool), listable: false, result: true, byRole: true, offered: readOnly },
  ask_user: { make: fixed(askUserTool), listable: false, offered: (mode, o) => mode === "read-only" && o.questions === true },
} as const satisfies Record<string, ToolEntry>;

export type ToolName = keyof typeof REGISTRY;

/** The tools through which an agent hands over its result (DESIGN §4): offered by role and mode, never by frontmatter. */
export type ResultToolName = { [K in ToolName]: (typeof REGISTRY)[K] extends { result: true } ? K : never }[ToolName];

export const TOOL_REGISTRY: Readonly<Record<ToolName, ToolEntry>> = REGISTRY;

/** The registry's rows in offering order. */
export const TOOL_ENTRIES = Object.entries(TOOL_REGISTRY) as Array<[ToolName, ToolEntry]>;

/** Every tool an agent may list in its `tools` frontmatter. */
export const LISTABLE_TOOLS: readonly ToolName[] = TOOL_ENTRIES.filter(([, e]) => e.listable).map(([name]) => name);

export const isListableTool = (name: string): name is ToolName => (LISTABLE_TOOLS as readonly string[]).includes(name);
