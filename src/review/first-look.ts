/**
 * A review's first look: one call with the diff and no tools, on the operator's cheaper model,
 * that names the hunks whose correctness depends on code outside them (a changed contract, a
 * unit or rule defined elsewhere, shared state, a resource). The reviewer then spends its reading,
 * commands and proofs on those; when it names none, the review is the one look alone. Its answer
 * is the model's text about a stranger's diff: data, checked against the diff, capped.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { z } from "zod";
import type { BudgetTracker } from "../agent/budget.js";
import { callModel } from "../agent/model-call.js";
import type { ContextSection } from "../text/prompt.js";
import type { DiffFile } from "./diff-lines.js";
import { EFFORT, type ReviewEffort, type Triage } from "./effort.js";
import { cappedDiff, withinDiffContext } from "./review-context.js";
import type { Selection } from "./select-files.js";

export const FIRST_LOOK_TOOL = "name_risky_hunks";
/** More would not be a triage; the reviewer's turns could not visit them all anyway. */
export const MAX_RISKY_HUNKS = 20;
const MAX_WHY = 200;
const MAX_OUTPUT_TOKENS = 2048;

export interface RiskyHunk {
  path: string;
  line: number;
  endLine?: number;
  why: string;
}

export type FirstLook = { risky: RiskyHunk[] } | { failed: string };

const SYSTEM = `You triage a pull request's diff for a code reviewer who can read the rest of the repository and run its tests, but only has time for the hunks that need it.
Name the hunks whose correctness depends on code OUTSIDE the diff: a function whose contract, return value, ordering, errors or units change while callers elsewhere rely on them; a value whose unit, interval, rounding or default is defined elsewhere; shared state, locking, events or timers; a removed check that may or may not be enforced elsewhere. Leave out hunks a reader can judge from the diff alone (documentation, comments, tests that only add cases, renames inside one function).
Answer only through the ${FIRST_LOOK_TOOL} tool: each hunk by path and its line range in the NEW version, with why in one short sentence. An empty list means nothing needs more than a read of the diff.`;

const TOOL: Anthropic.Tool = {
  name: FIRST_LOOK_TOOL,
  description: "The hunks that need reading beyond the diff, most important first.",
  input_schema: {
    type: "object",
    properties: {
      hunks: {
        type: "array",
        items: {
          type: "object",
          properties: {
            path: { type: "string", description: "The file's path, as in the diff." },
            line: { type: "integer", description: "First line of the hunk's risky part, new version." },
            endLine: { type: "integer", description: "Last line, when more than one." },
            why: { type: "string", description: "One short sentence: what outside the diff it depends on." },
          },
          required: ["path", "line", "why"],
        },
      },
    },
    required: ["hunks"],
  },
};

const Answer = z.object({ hunks: z.array(z.unknown()) });
const Hunk = z.object({ path: z.string(), line: z.number().int().positive(), endLine: z.number().int().optional(), why: z.string() });

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, MAX_WHY);

/** The answer's hunks that name a changed file and lie within one of its hunks' new lines; at most MAX_RISKY_HUNKS. */
export function riskyHunksIn(input: unknown, files: readonly DiffFile[]): RiskyHunk[] | undefined {
  const parsed = Answer.safeParse(input);
  if (!parsed.success) return undefined;
  const ranges = new Map(files.map((f) => [f.path, f.hunks.map((h) => ({ from: h.newStart, to: h.newStart + Math.max(h.newLines, 1) - 1 }))]));
  const out: RiskyHunk[] = [];
  // A hunk the model got wrong is dropped alone; the loop ends at the cap, however long the answer.
  for (const item of parsed.data.hunks) {
    if (out.length >= MAX_RISKY_HUNKS) break;
    const one = Hunk.safeParse(item);
    if (!one.success) continue;
    const h = one.data;
    const end = h.endLine !== undefined && h.endLine >= h.line ? h.endLine : undefined;
    const inside = ranges.get(h.path)?.some((r) => h.line <= r.to && (end ?? h.line) >= r.from);
    if (!inside) continue;
    out.push({ path: h.path, line: h.line, ...(end !== undefined && end > h.line ? { endLine: end } : {}), why: oneLine(h.why) });
  }
  return out;
}

export interface FirstLookRequest {
  client: Anthropic;
  model: string;
  files: readonly DiffFile[];
  /** The pull request's title and description, and the repository overview: what the diff is for. */
  context: ContextSection[];
  budget: BudgetTracker;
  signal: AbortSignal;
}

/** The first look; its cost goes to the review's budget. A failed call or an unusable answer is `failed`, never a throw. */
export async function firstLook(request: FirstLookRequest): Promise<FirstLook> {
  const { client, model, files, budget, signal } = request;
  const background = request.context.map((s) => `<document source="${s.source.replace(/"/g, "'")}">\n${s.text}\n</document>`).join("\n");
  const text = `${background}\n<diff>\n${cappedDiff(files)}</diff>`;
  try {
    const call = callModel({
      client,
      signal,
      params: { model, max_tokens: MAX_OUTPUT_TOKENS, system: SYSTEM, tools: [TOOL], tool_choice: { type: "tool", name: FIRST_LOOK_TOOL }, messages: [{ role: "user", content: text }] },
    });
    const { message, usage } = await call.done;
    budget.addUsage(model, usage);
    const use = message.content.find((b) => b.type === "tool_use" && b.name === FIRST_LOOK_TOOL);
    const risky = use?.type === "tool_use" ? riskyHunksIn(use.input, files) : undefined;
    return risky ? { risky } : { failed: `the first look's answer named no hunks in the expected form` };
  } catch (error) {
    return { failed: `the first look failed: ${(error as Error).message.split("\n")[0]}` };
  }
}

/** What the reviewer is told of the first look: the hunks to spend its tools on. */
export function firstLookSection(risky: readonly RiskyHunk[]): ContextSection {
  const lines = risky.map((h) => `- ${h.path}:${h.line}${h.endLine ? `-${h.endLine}` : ""}: ${h.why}`);
  return { source: "a first look at the diff (a cheaper model's triage): the hunks that depend on code outside the diff", text: lines.join("\n") };
}

export interface AfterFirstLook {
  /** The files the reviewer reviews: within the diff's context when the review is one look. */
  selection: Selection;
  /** The first look's hunks for the reviewer; none without them. */
  context: ContextSection[];
  /** For `reviewerShape`; undefined when no first look ran or it failed. */
  triage: Triage;
}

/** What a review runs after its first look (or without one): a look with no risky hunk narrows it to the diff. */
export function afterFirstLook(effort: ReviewEffort, selected: Selection, look?: FirstLook): AfterFirstLook {
  const risky = look && "risky" in look ? look.risky : undefined;
  const oneLook = EFFORT[effort].look || risky?.length === 0;
  return {
    selection: oneLook ? withinDiffContext(selected) : selected,
    context: risky && risky.length > 0 ? [firstLookSection(risky)] : [],
    triage: risky ? { risky: risky.length } : undefined,
  };
}
