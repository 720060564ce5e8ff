/**
 * Chain definitions (the bundled ones in `prompts/`): optional frontmatter (`description`), then the steps as a
 * markdown list of `agent: task` items. See DESIGN.md §3.
 */
import { z } from "zod";
import { NAME_PATTERN } from "./agents.js";
import { issueToError, readDefinitionDirs, readFrontmatter, type LoadOptions } from "./definition-files.js";
import { dedentBlock, indentOf, isBlank, listItem, scanFences } from "../text/markdown.js";
import { roleOf, ROLES } from "../agent/roles.js";
import { DefinitionError, type AgentDefinition, type ChainDefinition, type ChainStep } from "./types.js";

const CHAIN_KEYS = ["description"] as const;

const ChainFrontmatter = z.strictObject({
  description: z.string({ error: "must be a string" }).trim().min(1, { error: "must not be empty" }).optional(),
});

const STEP = /^([a-z0-9][a-z0-9_-]*)[ \t]*:[ \t]*(.*)$/;

/**
 * Parses the steps. Every top-level list item is a step `agent: task`; lines indented deeper than
 * the item belong to its task (newlines and relative indentation kept, blank lines between them
 * too); any other text (headings, paragraphs, top-level code fences) is ignored and ends the
 * current step. `{task}`, `{previous}` and `{output:<agent>}` are left for renderTask.
 */
function parseSteps(body: string, file: string, lineOffset: number): ChainStep[] {
  const steps: ChainStep[] = [];
  let base: number | null = null;
  let current: { agent: string; first: string; more: string[]; measured: boolean[]; line: number } | null = null;

  const finish = () => {
    if (!current) return;
    const more = dedentBlock(current.more, current.measured);
    while (more.length > 0 && more.at(-1) === "") more.pop();
    if (current.agent === PARALLEL) {
      steps.push(parallelStep(current.first, more, file, current.line, steps.length + 1));
      current = null;
      return;
    }
    const task = [current.first, ...more].join("\n").trim();
    if (task === "") {
      throw new DefinitionError(file, "steps", `line ${current.line}: step ${steps.length + 1} (${current.agent}) has no task`);
    }
    steps.push({ agent: current.agent, task });
    current = null;
  };

  for (const line of scanFences(body)) {
    const lineNo = line.index + 1 + lineOffset;
    const indent = indentOf(line.text);
    // Inside a step, anything indented deeper than the item — code fences included — is its task.
    if (current && base !== null && (isBlank(line.text) || indent > base || (line.fenceIndent !== null && line.fenceIndent > base))) {
      current.more.push(line.text);
      // Fence content may sit left of the item's text; only the rest sets the dedent width.
      const fenceContent = line.fenceIndent !== null && !/^\s*(`{3,}|~{3,})/.test(line.text);
      current.measured.push(!fenceContent);
      continue;
    }
    if (line.fenceIndent !== null) {
      finish();
      continue;
    }
    const item = listItem(line.text);
    if (item && (base === null ? item.indent <= 3 : item.indent <= base)) {
      finish();
      base ??= item.indent;
      const m = STEP.exec(item.text);
      if (!m) {
        throw new DefinitionError(
          file,
          "steps",
          `line ${lineNo}: expected "agent: task" (a lowercase agent name, a colon, the task), got "${item.text.slice(0, 60)}"`,
        );
      }
      current = { agent: m[1]!, first: m[2]!.trim(), more: [], measured: [], line: lineNo };
      continue;
    }
    if (!isBlank(line.text)) finish();
  }
  finish();
  return steps;
}

/** The step keyword whose indented `agent: task` items run at once. */
export const PARALLEL = "parallel";
/** At most this many items in a parallel step, and at most this many running at a time. */
export const MAX_PARALLEL_ITEMS = 8;
export const PARALLEL_AT_ONCE = 4;
/** The bundled writer's name: refused as a parallel item as the file is read (any writing role is, once the agents are known). */
export const WRITER_AGENT = "worker";

/** `parallel:` and its indented items (already dedented), each an ordinary `agent: task`. */
function parallelStep(first: string, lines: string[], file: string, line: number, n: number): ChainStep {
  const where = `line ${line}: step ${n} (parallel)`;
  if (first !== "") throw new DefinitionError(file, "steps", `${where}: list its "agent: task" items indented below "parallel:", not on its line`);
  const items = lines.length > 0 ? parseSteps(lines.join("\n"), file, line) : [];
  if (items.length === 0) throw new DefinitionError(file, "steps", `${where}: has no items; indent "- agent: task" items below it`);
  if (items.length > MAX_PARALLEL_ITEMS) {
    throw new DefinitionError(file, "steps", `${where}: has ${items.length} items; at most ${MAX_PARALLEL_ITEMS}`);
  }
  items.forEach((item, i) => {
    if (item.parallel) throw new DefinitionError(file, "steps", `${where}: item ${i + 1} is itself parallel; parallel steps do not nest`);
    if (item.agent === WRITER_AGENT) {
      throw new DefinitionError(file, "steps", `${where}: item ${i + 1} is the ${WRITER_AGENT}, which never runs in parallel (one writer at a time)`);
    }
  });
  return { agent: PARALLEL, task: "", parallel: items };
}

/** The agents a step runs: its own, or its parallel items'. */
export function stepAgents(step: ChainStep): string[] {
  return step.parallel ? step.parallel.map((item) => item.agent) : [step.agent];
}

/** Parses one chain file; `name` is the file's basename without `.md`. */
export function parseChainFile(text: string, file: string, name: string): ChainDefinition {
  if (!NAME_PATTERN.test(name)) {
    throw new DefinitionError(file, "name", `"${name}" is not a valid chain name (lowercase letters, digits, '-' and '_')`);
  }
  const { data, body } = readFrontmatter(text, file);
  const parsed = ChainFrontmatter.safeParse(data);
  if (!parsed.success) throw issueToError(file, parsed.error.issues, CHAIN_KEYS);
  // Line numbers in errors count from the top of the file, frontmatter included.
  const source = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  const at = source.length - body.replace(/\r\n/g, "\n").length;
  const lineOffset = source.slice(0, at).split("\n").length - 1;
  const steps = parseSteps(body, file, lineOffset);
  if (steps.length === 0) {
    throw new DefinitionError(file, "steps", 'no steps; list them as "1. agent: task" or "- agent: task"');
  }
  checkOutputs(steps, file);
  const chain: ChainDefinition = { name, steps, file };
  if (parsed.data.description !== undefined) chain.description = parsed.data.description;
  return chain;
}

/** Loads chains from `dirs` in priority order; the first chain of a name (file basename) wins. */
export async function loadChains(dirs: readonly string[], options: LoadOptions = {}): Promise<Map<string, ChainDefinition>> {
  const chains = new Map<string, ChainDefinition>();
  for (const layer of await readDefinitionDirs(dirs, options)) {
    const own = layer.map(({ text, file, basename }) => parseChainFile(text, file, basename));
    for (const chain of own) if (!chains.has(chain.name)) chains.set(chain.name, chain);
  }
  return chains;
}

/**
 * Throws a DefinitionError naming the chain file and the first step whose agent is unknown, or
 * the first parallel item whose agent plays a writing role (one writer at a time).
 */
export function validateChain(chain: ChainDefinition, agents: ReadonlyMap<string, AgentDefinition>): void {
  chain.steps.forEach((step, index) => {
    for (const agent of stepAgents(step)) {
      if (agents.has(agent)) continue;
      const known = [...agents.keys()].sort().join(", ") || "none";
      throw new DefinitionError(chain.file, "steps", `step ${index + 1}: unknown agent "${agent}" (known: ${known})`);
    }
    step.parallel?.forEach((item, i) => {
      const role = roleOf(agents.get(item.agent)!);
      if (!ROLES[role].writes) return;
      throw new DefinitionError(chain.file, "steps", `step ${index + 1} (parallel): item ${i + 1} (${item.agent}) plays the ${role} role, which never runs in parallel (one writer at a time)`);
    });
  });
}

const PLACEHOLDER = /\{(task|previous|output:([a-z0-9][a-z0-9_-]*))\}/g;

export interface TaskValues {
  task: string;
  previous?: string;
  /** The latest output of each agent that ran earlier in the chain: `{output:<agent>}`. */
  outputs?: ReadonlyMap<string, string>;
}

/**
 * Substitutes `{task}`, `{previous}` and `{output:<agent>}` in one pass: text inserted for one
 * placeholder is never scanned again, so a request that itself contains `{previous}` stays literal.
 */
export function renderTask(template: string, values: TaskValues): string {
  return template.replace(PLACEHOLDER, (_, key: string, agent: string | undefined) =>
    agent !== undefined ? (values.outputs?.get(agent) ?? "") : (key === "task" ? values.task : values.previous) ?? "",
  );
}

/** The agents a task's `{output:<agent>}` placeholders name, in order of appearance. */
export function outputsNamed(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].flatMap((m) => (m[2] !== undefined ? [m[2]] : [])))];
}

/** `{output:<agent>}` must name an agent of an earlier step; anything else is a broken chain file. */
function checkOutputs(steps: readonly ChainStep[], file: string): void {
  // Gathered step by step: a chain of many steps is checked in one pass.
  const earlier = new Set<string>();
  steps.forEach((step, index) => {
    for (const own of step.parallel ?? [step]) {
      for (const agent of outputsNamed(own.task)) {
        if (earlier.has(agent)) continue;
        const known = earlier.size > 0 ? `earlier steps: ${[...earlier].join(", ")}` : "it is the first step";
        throw new DefinitionError(file, "steps", `step ${index + 1} (${own.agent}): {output:${agent}} names no agent of an earlier step (${known})`);
      }
    }
    for (const agent of stepAgents(step)) earlier.add(agent);
  });
}
