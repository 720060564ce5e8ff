/**
 * The reviewer's output (DESIGN.md §3): bullets `- path/to/file.ts:42 - text` (or a range
 * `:40-45`) under headings that name a severity (`## Critical Issues`, `## Warnings`,
 * `## Nitpicks`, …), then `## Summary`.
 */
import { dedentBlock, indentOf, isBlank, listItem, saysNothing, sections, type Section } from "../text/markdown.js";
import type { Finding, ParsedReview, ReviewNote, Severity } from "./types.js";

const SUMMARY = "summary";
// Label lines (`Critical:`) must match exactly; headers match by the words in them (severityOf).
const LABELS = new Set(["critical", "warning", "warnings", "suggestion", "suggestions", "nitpicks", "nits", SUMMARY]);

/**
 * The severity a section title names, by its words: `Critical Issues`, `Blockers` → critical;
 * `Nitpicks`, `Minor issues`, `Optional improvements` → suggestion; `Warnings`, `Major issues`,
 * `Problems` → warning. Checked in that order, so `Minor issues` is a suggestion. Titles that
 * name none (`Overview`, `Strengths`) are not severity sections.
 */
export function severityOf(title: string): Severity | undefined {
  const has = (words: string) => new RegExp(`(^| )(${words})( |$)`).test(title);
  if (has("critical|blockers?|blocking|must fix|high (severity|priority)")) return "critical";
  if (has("suggestions?|suggested|nits?|nitpicks?|nitpicking|minor|optional|improvements?|low (severity|priority)|polish|style|consider")) return "suggestion";
  if (has("warnings?|major|important|should fix|medium|issues?|problems?|concerns?|bugs?|findings?")) return "warning";
  return undefined;
}

const isSummary = (title: string) => /(^| )(summary|verdict|conclusion|overall assessment)( |$)/.test(title);

/** The content of the first ` ```suggestion ` block in a finding's text: the reviewer's replacement lines. */
export function suggestionOf(text: string): string | undefined {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => /^\s*(`{3,}|~{3,})\s*suggestion\s*$/.test(l));
  if (start === -1) return undefined;
  const open = /^\s*(`{3,}|~{3,})/.exec(lines[start]!)![1]!;
  const indent = lines[start]!.length - lines[start]!.trimStart().length;
  const body: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const close = /^\s*(`{3,}|~{3,})\s*$/.exec(line);
    if (close && close[1]![0] === open[0] && close[1]!.length >= open.length) return body.join("\n");
    body.push(line.slice(Math.min(indent, line.length - line.trimStart().length)));
  }
  return undefined; // never closed: not a usable replacement
}

// `path:42`, `path:40-45`, `path:42:7` (column ignored), optionally `L42`; the path may be
// backticked (`` `src/a.ts:42` `` or `` `src/a.ts`:42 ``) or bold. Paths with spaces are not supported.
const LOCATION =
  /^(?:\*\*|__)?`*([^\s`*:]+?)`*:L?(\d{1,9})(?:[-–]L?(\d{1,9}))?(?::\d{1,9})?`*(?:\*\*|__)?(?=$|[\s,:;.\-–—])(.*)$/s;

export interface Location {
  path: string;
  line: number;
  endLine?: number;
  rest: string;
}

/**
 * `src/a.ts:42 - text` → location and text. Separators ` - `, ` — `, ` – `, `: ` (or none).
 * A range written backwards (`:45-40`) is swapped; `:42-42` is a single line; line 0 is no location.
 */
export function parseLocation(text: string): Location | null {
  const m = LOCATION.exec(text);
  if (!m) return null;
  let line = Number(m[2]);
  let end = m[3] !== undefined ? Number(m[3]) : undefined;
  if (end !== undefined && end < line) [line, end] = [end, line];
  if (line < 1) return null;
  const path = m[1]!.replace(/^\.\//, "");
  if (path === "") return null;
  const rest = m[4]!.replace(/^\s*(?:[-–—:]+|\.)?\s*/, "");
  const location: Location = { path, line, rest };
  if (end !== undefined && end !== line) location.endLine = end;
  return location;
}

function severitySection(section: Section, severity: Severity, findings: Finding[], notes: ReviewNote[]): void {
  let base: number | null = null;
  let item: { first: string; more: string[]; measured: boolean[] } | null = null;
  let paragraph: string[] | null = null;

  const flushItem = () => {
    if (!item) return;
    const more = dedentBlock(item.more, item.measured);
    while (more.length > 0 && more.at(-1) === "") more.pop();
    const location = parseLocation(item.first);
    if (location) {
      const text = [location.rest, ...more].join("\n").trim();
      const finding: Finding = { path: location.path, line: location.line, severity, text };
      if (location.endLine !== undefined) finding.endLine = location.endLine;
      // The block stays in the text as the reviewer wrote it; the replacement is also kept as data.
      const suggestion = suggestionOf(text);
      if (suggestion !== undefined) finding.suggestion = suggestion;
      findings.push(finding);
    } else {
      const text = [item.first, ...more].join("\n").trim();
      if (text !== "" && !(more.length === 0 && saysNothing(text))) notes.push({ severity, text });
    }
    item = null;
  };
  const flushParagraph = () => {
    if (!paragraph) return;
    const text = paragraph.join("\n").trim();
    if (text !== "" && !saysNothing(text)) notes.push({ severity, text });
    paragraph = null;
  };

  for (const line of section.lines) {
    // A code block indented under a finding (e.g. a ```suggestion) is part of it.
    if (item && base !== null && line.fenceIndent !== null && line.fenceIndent > base) {
      item.more.push(line.text);
      // Fence content may sit left of the bullet's text; only the rest sets the dedent width.
      item.measured.push(/^\s*(`{3,}|~{3,})/.test(line.text));
      continue;
    }
    if (line.fenceIndent !== null) {
      flushItem();
      flushParagraph();
      continue;
    }
    if (isBlank(line.text)) {
      if (item) {
        item.more.push("");
        item.measured.push(true);
      }
      flushParagraph();
      continue;
    }
    const indent = indentOf(line.text);
    const bullet = listItem(line.text);
    if (bullet && (base === null || bullet.indent <= base)) {
      flushItem();
      flushParagraph();
      base ??= bullet.indent;
      item = { first: bullet.text, more: [], measured: [] };
      continue;
    }
    // Deeper lines (nested bullets too) belong to the finding; so does a lazy line right after it.
    if (item && ((base !== null && indent > base) || item.more.at(-1) !== "")) {
      item.more.push(line.text);
      item.measured.push(true);
      continue;
    }
    flushItem();
    (paragraph ??= []).push(line.text.trim());
  }
  flushItem();
  flushParagraph();
}

/**
 * Parses a review. Bullets (`-`, `*`, `+` or numbered) with a `path:line` become findings of the
 * section's severity; bullets and paragraphs without one become `notes` ("None." is dropped);
 * fenced code outside a bullet, text before the first section and unknown sections are ignored.
 */
export function parseReview(text: string): ParsedReview {
  const findings: Finding[] = [];
  const notes: ReviewNote[] = [];
  const summaries: string[] = [];
  for (const section of sections(text, LABELS)) {
    if (section.title === null) continue;
    const severity = isSummary(section.title) ? undefined : severityOf(section.title);
    if (severity) {
      if (section.inline !== "") section.lines.unshift({ text: section.inline, index: -1, fenceIndent: null });
      severitySection(section, severity, findings, notes);
    } else if (isSummary(section.title)) {
      const body = [section.inline, ...dedentBlock(section.lines.map((l) => l.text))].join("\n").trim();
      if (body !== "") summaries.push(body);
    }
  }
  return { findings, summary: summaries.join("\n\n"), notes };
}
