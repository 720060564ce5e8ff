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
import { submitPlanTool } from "./submit-plan.js";
import { submitReviewTool } from "./submit-review.js";
import type { CheckoutTrust, Mode, SandboxInfo, Tool, ToolName } from "./types.js";
import { writeTool } from "./write.js";

export { detectSandbox } from "./sandbox.js";

export const TOOL_NAMES: readonly ToolName[] = ["read", "ls", "find", "grep", "bash", "edit", "write"];
const READ_ONLY_NEVER: readonly ToolName[] = ["edit", "write"];

export interface ToolSet {
  tools: Tool[];
  /** For the run's log: why a tool is missing or how it runs. */
  notes: string[];
}

/**
 * The tools an agent gets. The mode decides what exists (read-only mode never gets edit/write,
 * and gets bash only inside a working sandbox; write mode gets bash without one only when the
 * operator opted in); `allow` (the agent's `tools` frontmatter)
 * can only narrow that set, never add to it.
 */
export function toolsFor(mode: Mode, opts: ToolsForOptions): ToolSet {
  const set = baseTools(mode, opts);
  const skills = opts.hasSkills ? [skillTool] : [];
  const scratch = opts.scratch ? [scratchWriteTool] : [];
  return { tools: [...set.tools, ...skills, ...scratch, ...proofTools(mode, opts, set.tools), ...resultTools(mode, opts)], notes: set.notes };
}

export interface ToolsForOptions {
  sandbox: SandboxInfo;
  allow?: readonly string[];
  /** A stranger's checkout (a fork's pull request) gets no `bash`, sandbox or not. */
  trust: CheckoutTrust;
  /** The agent's name: the planner gets `submit_plan`, the reviewer `submit_review` (read-only steps only). */
  agent?: string;
  /** The worker's task has a numbered plan: it gets `complete_step`. */
  numberedPlan?: boolean;
  /** The repository has skills: the `skill` tool is offered (in every mode; `allow` does not narrow it). */
  hasSkills?: boolean;
  /** The run has a `local://` scratch space: `scratch_write` is offered (in every mode; `allow` does not narrow it). */
  scratch?: boolean;
  /** The review may run proofs (`review.prove: auto`, not a fork's PR): the reviewer gets `prove` where it also has bash. */
  prove?: boolean;
}

/**
 * `prove` runs the reviewer's commands, so it goes only where bash went (a working sandbox, not a
 * fork's pull request, not narrowed away by the agent's `tools`) and only to the reviewer.
 */
function proofTools(mode: Mode, opts: ToolsForOptions, offered: readonly Tool[]): Tool[] {
  const bash = offered.some((t) => t.name === "bash");
  return opts.prove === true && opts.trust === "trusted" && mode === "read-only" && opts.agent === "reviewer" && opts.sandbox.available && bash ? [proveTool] : [];
}

/** The tools an agent hands its result over with (DESIGN §4): by agent and mode; `allow` does not narrow them. */
function resultTools(mode: Mode, opts: ToolsForOptions): Tool[] {
  if (mode === "write") return opts.numberedPlan ? [completeStepTool] : [];
  if (opts.agent === "planner") return [submitPlanTool];
  if (opts.agent === "reviewer") return [submitReviewTool];
  return [];
}

function baseTools(mode: Mode, opts: ToolsForOptions): ToolSet {
  const notes: string[] = [];
  const why = opts.sandbox.reason ?? "no working OS sandbox";
  const offered: Tool[] = [readTool, lsTool, findTool, grepTool];
  if (opts.trust !== "trusted") {
    // Code from a fork is a stranger's: nothing of it is run, sandbox or not.
    if (mode === "write") offered.push(editTool, writeTool);
    notes.push("bash is not offered for this job: the code comes from a fork, and nothing of a stranger's code runs.");
  } else if (mode === "write") {
    // No sandbox, no commands — unless the operator explicitly allowed running without one.
    if (opts.sandbox.available || opts.sandbox.allowUnsandboxed === true) offered.push(createBashTool(mode, opts.sandbox));
    offered.push(editTool, writeTool);
    if (!opts.sandbox.available) {
      notes.push(opts.sandbox.allowUnsandboxed === true ? `bash runs WITHOUT an OS sandbox (${why}; CREWBOT_ALLOW_UNSANDBOXED=1).` : `bash is not offered: it needs the OS sandbox (${why}).`);
    }
  } else if (opts.sandbox.available) {
    offered.push(createBashTool(mode, opts.sandbox));
  } else {
    notes.push(`bash is not offered in read-only mode: it needs the OS sandbox (${why}).`);
  }
  if (opts.allow === undefined) return { tools: offered, notes };

  const allow = new Set(opts.allow.map((n) => n.trim().toLowerCase()));
  for (const name of allow) {
    if (!(TOOL_NAMES as readonly string[]).includes(name)) notes.push(`Unknown tool "${name}" in the agent's tools list (ignored).`);
    else if (mode === "read-only" && READ_ONLY_NEVER.includes(name as ToolName)) notes.push(`${name} is never offered in read-only mode (ignored).`);
  }
  return { tools: offered.filter((t) => allow.has(t.name)), notes };
}

const SUMMARY_MAX = 80;

/** One line, control characters and runs of whitespace folded, cut to `max` with an ellipsis. */
export function oneLine(text: string, max = SUMMARY_MAX): string {
  const flat = text.replace(/[\s\p{Cc}]+/gu, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : undefined;
}

/** A short label for a tool call in progress events, e.g. `read src/a.ts:120`, `bash npm test`. */
export function summarizeArgs(name: string, input: unknown): string {
  const a = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const p = str(a.path);
  let text: string;
  switch (name) {
    case "read":
      text = `read ${p ?? "?"}${str(a.offset) !== undefined ? `:${str(a.offset)}` : ""}`;
      break;
    case "ls":
      text = `ls ${p ?? "."}`;
      break;
    case "find":
      text = `find ${str(a.pattern) ?? "?"}${p !== undefined ? ` in ${p}` : ""}`;
      break;
    case "grep":
      text = `grep ${JSON.stringify(str(a.pattern) ?? "")}${p !== undefined ? ` in ${p}` : ""}${str(a.glob) !== undefined ? ` (${str(a.glob)})` : ""}`;
      break;
    case "bash":
      text = `bash ${str(a.command) ?? ""}`;
      break;
    case "edit":
    case "write":
    case "scratch_write":
      text = `${name} ${p ?? "?"}`;
      break;
    case "submit_plan":
      text = `submit_plan (${Array.isArray(a.steps) ? a.steps.length : "?"} steps)`;
      break;
    case "submit_review":
      text = `submit_review (${Array.isArray(a.findings) ? a.findings.length : "?"} findings)`;
      break;
    case "skill":
      text = `skill ${str(a.name) ?? "?"}`;
      break;
    case "prove":
      text = `prove finding ${str(a.finding) ?? "?"}: ${str(a.command) ?? ""}`;
      break;
    case "complete_step":
      text = `complete_step ${str(a.step) ?? "?"}`;
      break;
    default:
      text = `${name} ${JSON.stringify(input) ?? ""}`;
  }
  return oneLine(text);
}
