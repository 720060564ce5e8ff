/**
 * The planner's output (DESIGN.md §3): a header that contains "plan" (`## Plan`, `## Implementation
 * Plan`, any level) or a `Plan:` line followed by a numbered list; optional `## Goal`,
 * `## Files to Modify`, `## Risks`.
 */
import {
  dedentBlock,
  indentOf,
  isBlank,
  labelLine,
  listItem,
  sections,
  stripEmphasis,
  type FencedLine,
  type Section,
} from "../text/markdown.js";
import type { ParsedPlan, PlanStep } from "./types.js";

const PLAN = "plan";
const GOAL = "goal";
const FILES = "files to modify";
const RISKS = "risks";
const LABELS = new Set([PLAN, GOAL, FILES, RISKS]);

/**
 * The steps of one plan section. Only top-level numbered items count (the first one sets the
 * level); nested items, bullets, fenced code and empty items are skipped. A step's text is its
 * first paragraph: lines that continue it without a blank line in between (indented, or lazily
 * unindented) are joined with a space. After the first step, a bare `Label:` line ends the list.
 */
function planSteps(lines: FencedLine[]): string[] {
  const steps: string[][] = [];
  let base: number | null = null;
  let joinable = false;
  for (const line of lines) {
    if (line.fenceIndent !== null || isBlank(line.text)) {
      joinable = false;
      continue;
    }
    const item = listItem(line.text);
    if (item) {
      if (item.ordered && (base === null || item.indent <= base)) {
        base ??= item.indent;
        steps.push([item.text]);
        joinable = true;
      } else {
        joinable = false;
      }
      continue;
    }
    const label = labelLine(line.text);
    if (steps.length > 0 && label && label.rest === "" && indentOf(line.text) === 0) break;
    if (joinable) steps.at(-1)!.push(line.text.trim());
  }
  // Empty items, and items of markup alone (`**  **`), are not steps.
  return steps.map((parts) => cleanStep(parts.join(" "))).filter((text) => !/^[\s*_~`-]*$/.test(text));
}

function cleanStep(text: string): string {
  return stripEmphasis(text.trim())
    .replace(/^\[[ xX]\]\s+/, "") // a checkbox the planner added itself
    .trim();
}

function sectionText(section: Section): string {
  const lines = dedentBlock(section.lines.map((l) => l.text));
  return [section.inline, ...lines].join("\n").trim();
}

function filePaths(section: Section): string[] {
  const paths: string[] = [];
  let base: number | null = null;
  const items = [section.inline, ...section.lines.filter((l) => l.fenceIndent === null).map((l) => l.text)];
  for (const line of items) {
    const item = listItem(line);
    if (!item) continue;
    base ??= item.indent;
    if (item.indent > base) continue;
    const path = pathOf(item.text);
    if (path && !paths.includes(path)) paths.push(path);
  }
  return paths;
}

/** `` `src/a.ts` — why `` → `src/a.ts`; `**src/a.ts** (new)` → `src/a.ts`. */
function pathOf(text: string): string | null {
  const code = /^`+([^`]+?)`+/.exec(text);
  let token = code ? code[1]!.trim() : (text.split(/\s+/)[0] ?? "");
  if (!code) {
    for (const d of ["**", "__", "*"]) {
      if (token.length > 2 * d.length && token.startsWith(d) && token.endsWith(d)) token = token.slice(d.length, -d.length);
    }
    token = token.replace(/[:,;]+$/, "");
  }
  token = token.replace(/^\.\//, "");
  if (token === "" || /^(none|n\/a|-+)$/i.test(token)) return null;
  return token;
}

/**
 * A heading that names a plan: `Plan`, `Implementation Plan`, `Proposed plan`, `Planned changes`
 * (a word starting with "plan"; "Explanation" is not one).
 */
function isPlanTitle(title: string | null): boolean {
  return title !== null && (title === PLAN || /(^| )plan/.test(title));
}

/** `Steps`, `Implementation Steps`, `Step-by-step` — but not `Steps to reproduce` (the bug, not the work). */
function isStepsTitle(title: string | null): boolean {
  return title !== null && /(^| )steps?( |$)/.test(title) && !/reproduc/.test(title);
}

/** Parses a plan; no section headed with "plan" (or `Plan:`) with numbered items → `steps: []`. */
export function parsePlan(text: string): ParsedPlan {
  const all = sections(text, LABELS);
  // A heading with "plan" first; only without one, a heading of steps (`## Implementation Steps`).
  let steps: PlanStep[] = [];
  for (const wanted of [isPlanTitle, isStepsTitle]) {
    const section = all.find((s) => wanted(s.title) && planSteps(s.lines).length > 0);
    if (section) {
      steps = planSteps(section.lines).map((t, i) => ({ n: i + 1, text: t }));
      break;
    }
  }
  const plan: ParsedPlan = { steps, filesToModify: [] };
  const goal = all.find((s) => s.title === GOAL) ?? all.find((s) => /(^| )(goal|objective)s?( |$)/.test(s.title ?? ""));
  if (goal) {
    const t = sectionText(goal);
    if (t !== "") plan.goal = t;
  }
  const files = all.find((s) => s.title === FILES) ?? all.find((s) => /(^| )files?( |$)/.test(s.title ?? "") && !isPlanTitle(s.title));
  if (files) plan.filesToModify = filePaths(files);
  const risks = all.find((s) => s.title === RISKS) ?? all.find((s) => /(^| )risks?( |$)/.test(s.title ?? ""));
  if (risks) {
    const t = sectionText(risks);
    if (t !== "") plan.risks = t;
  }
  return plan;
}
