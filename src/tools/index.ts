import { isListableTool, TOOL_ENTRIES, TOOL_REGISTRY, type ToolsForOptions } from "./registry.js";
import type { Mode, Tool } from "./types.js";
import type { ToolName } from "./registry.js";

export { detectSandbox } from "./sandbox.js";
export type { ToolsForOptions } from "./registry.js";

export interface ToolSet {
  tools: Tool[];
  /** For the run's log: why a tool is missing or how it runs. */
  notes: string[];
}

/**
 * The tools an agent gets, by the rules of the registry (registry.ts), in its order. The mode
 * decides what exists (read-only mode never gets edit/write, and gets bash only inside a working
 * sandbox; write mode gets bash without one only when the operator opted in); `allow` (the agent's
 * `tools` frontmatter) can only narrow the listable ones, never add to them.
 */
export function toolsFor(mode: Mode, opts: ToolsForOptions): ToolSet {
  const allow = opts.allow === undefined ? undefined : new Set(opts.allow.map((n) => n.trim().toLowerCase()));
  const offered = new Set<ToolName>();
  for (const [name, entry] of TOOL_ENTRIES) {
    if (!entry.offered(mode, opts)) continue;
    if (entry.byRole === true && !(opts.roleTools ?? []).includes(name)) continue;
    if (entry.listable && allow !== undefined && !allow.has(name)) continue;
    if (entry.requires !== undefined && !offered.has(entry.requires as ToolName)) continue;
    offered.add(name);
  }
  const tools = [...offered].map((name) => TOOL_REGISTRY[name].make(mode, opts.sandbox));
  return { tools, notes: [...bashNotes(mode, opts), ...allowNotes(mode, allow)] };
}

/** Why bash is missing, or that it runs without a sandbox. */
function bashNotes(mode: Mode, opts: ToolsForOptions): string[] {
  const why = opts.sandbox.reason ?? "no working OS sandbox";
  // Code from a fork is a stranger's: nothing of it is run, sandbox or not.
  if (opts.trust !== "trusted") return ["bash is not offered for this job: the code comes from a fork, and nothing of a stranger's code runs."];
  if (opts.sandbox.available) return [];
  if (mode === "read-only") return [`bash is not offered in read-only mode: it needs the OS sandbox (${why}).`];
  return [opts.sandbox.allowUnsandboxed === true ? `bash runs WITHOUT an OS sandbox (${why}; CREWBOT_ALLOW_UNSANDBOXED=1).` : `bash is not offered: it needs the OS sandbox (${why}).`];
}

/** What in the agent's `tools` list was ignored: unknown names, and writing tools in read-only mode. */
function allowNotes(mode: Mode, allow: ReadonlySet<string> | undefined): string[] {
  const notes: string[] = [];
  for (const name of allow ?? []) {
    if (!isListableTool(name)) notes.push(`Unknown tool "${name}" in the agent's tools list (ignored).`);
    else if (mode === "read-only" && TOOL_REGISTRY[name].writes) notes.push(`${name} is never offered in read-only mode (ignored).`);
  }
  return notes;
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
    case "submit_learnings":
      text = `submit_learnings (${Array.isArray(a.learnings) ? a.learnings.length : "?"})`;
      break;
    case "submit_summary":
      text = `submit_summary (${Array.isArray(a.walkthrough) ? a.walkthrough.length : "?"} rows)`;
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
