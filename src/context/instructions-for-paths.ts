/**
 * Which of a repository's instructions a job's agents get (DESIGN §3 "Repository instructions"),
 * from the instruction files read (repo-instructions.ts) and the files the job touches or reviews:
 * the root's `AGENTS.md`/`CLAUDE.md` and `.github/copilot-instructions.md` always; for each file
 * the nearest `AGENTS.md`/`CLAUDE.md` above it and the `.github/instructions/*.instructions.md`
 * whose `applyTo` matches it; for a review the `review.instructions` entries whose paths match it.
 * Each section names its file and the files it applies to; every size is capped, with a note.
 */
import path from "node:path";
import picomatch from "picomatch";
import { readFrontmatter } from "../chain/definition-files.js";
import type { ContextSection } from "../text/prompt.js";
import { CONFIG_PATH } from "../config/schema.js";
import { matchesAny } from "../review/select-files.js";
import { instructionKind, shallowFirst } from "./instruction-files.js";

export interface InstructionFile {
  /** Repository-relative path. */
  path: string;
  text: string;
  /** The file was longer than what was read of it. */
  truncated?: boolean;
}

/** One `review.instructions` entry of the config. */
export interface ConfiguredInstruction {
  paths: readonly string[];
  text: string;
}

export interface InstructionRequest {
  /** The files the job touches or reviews; undefined when none is known upfront (/plan, /implement on an issue). */
  paths?: readonly string[];
  /** A review: `review.instructions` apply, and `excludeAgent: code-review` files do not (else `coding-agent` ones do not). */
  review: boolean;
  configured?: readonly ConfiguredInstruction[];
  /** Where the files were read, named in each source (e.g. "default branch"). */
  origin?: string;
}

export interface InstructionCaps {
  /** Characters of one file or entry; more is cut with a note. */
  fileChars: number;
  /** Characters of all instructions together; what does not fit is cut or left out, with a note. */
  totalChars: number;
}

export const INSTRUCTION_CAPS: InstructionCaps = { fileChars: 32 * 1024, totalChars: 96 * 1024 };
/** Paths of a job matched against the instructions (a PR of generated files may change thousands). */
export const MAX_MATCHED_PATHS = 2000;
/** Lines of the listing of instructions too long to include. */
const MAX_LISTED = 200;
const NAMES_SHOWN = 5;
/** With less room than this left, a section is left out rather than cut to a stub. */
const MIN_PART_CHARS = 1024;

export interface ChosenInstructions {
  sections: ContextSection[];
  /** For the transcript: the source of each section given, then what was left out or not applied, and why. */
  applied: string[];
  /** Instruction files that could not be used (broken frontmatter), for the job's notes. */
  problems: string[];
}

interface Candidate {
  /** The file's path or `review.instructions[i]`. */
  name: string;
  /** What it covers, in words (for the listing and the left-out note). */
  covers: string;
  /** The section's source: the name, where it came from, and the files it applies to. */
  source: string;
  text: string;
  truncated?: boolean;
}

interface PathSpecific {
  file: InstructionFile;
  globs: string[];
  matches: (path: string) => boolean;
  body: string;
}

const kb = (chars: number) => `${Math.round(chars / 1024)} KB`;
const listed = (names: readonly string[]) =>
  names.length <= NAMES_SHOWN ? names.join(", ") : `${names.slice(0, NAMES_SHOWN).join(", ")} and ${names.length - NAMES_SHOWN} more`;

export function instructionsForPaths(
  files: readonly InstructionFile[],
  request: InstructionRequest,
  caps: InstructionCaps = INSTRUCTION_CAPS,
): ChosenInstructions {
  const from = request.origin ? ` (${request.origin})` : "";
  const applied: string[] = [];
  const problems: string[] = [];
  const sorted = [...files].filter((f) => instructionKind(f.path) !== undefined).sort((a, b) => shallowFirst(a.path, b.path));
  const root = sorted.filter((f) => instructionKind(f.path) === "copilot" || (instructionKind(f.path) === "agents" && !f.path.includes("/")));
  const nested = sorted.filter((f) => instructionKind(f.path) === "agents" && f.path.includes("/"));
  const scoped = pathSpecific(sorted, request.review, applied, problems);
  const always: Candidate[] = root.map((f) => ({ name: f.path, covers: "the whole repository", source: `${f.path}${from}`, text: f.text, truncated: f.truncated }));
  const configured = (request.configured ?? []).map((entry, i) => ({ entry, name: `review.instructions[${i}] of ${CONFIG_PATH}` }));

  let parts: Candidate[];
  if (request.paths === undefined) {
    const entries = request.review ? configured.map(({ entry, name }) => configuredCandidate(name, entry.text, `the files matching ${entry.paths.join(", ")}`)) : [];
    const all = [...nested.map((f) => nestedCandidate(f, from)), ...scoped.map((s) => scopedCandidate(s, from))];
    const room = caps.totalChars - [...always, ...entries].reduce((n, c) => n + Math.min(c.text.length, caps.fileChars), 0);
    const size = all.reduce((n, c) => n + Math.min(c.text.length, caps.fileChars), 0);
    if (size <= room) parts = [...always, ...entries, ...all];
    else {
      applied.push(`listed, not included (${all.length} files, ${kb(size)} together, over the ${kb(caps.totalChars)} cap): ${listed(all.map((c) => c.name))}`);
      parts = [...always, ...entries, listing(all, size, caps, from)];
    }
  } else {
    // The caller's order decides what a cap keeps (a review's: by risk); names are shown sorted.
    const paths = request.paths.slice(0, MAX_MATCHED_PATHS).sort();
    if (request.paths.length > paths.length) applied.push(`only the first ${paths.length} of ${request.paths.length} files were matched against the instructions`);
    const entries = request.review ? configured.flatMap(({ entry, name }) => {
      const hits = paths.filter((p) => matchesAny(p, entry.paths));
      return hits.length > 0 ? [configuredCandidate(name, entry.text, `${entry.paths.join(", ")}: ${listed(hits)}`)] : [];
    }) : [];
    parts = [...always, ...entries, ...nearestFor(nested, paths, from), ...scopedFor(scoped, paths, from)];
  }
  return { ...withinCaps(parts, caps, applied), problems };
}

/** `.github/instructions/*.instructions.md` with their `applyTo` globs; the others said in `applied` or `problems`. */
function pathSpecific(files: readonly InstructionFile[], review: boolean, applied: string[], problems: string[]): PathSpecific[] {
  const excluded = review ? "code-review" : "coding-agent";
  const out: PathSpecific[] = [];
  for (const file of files.filter((f) => instructionKind(f.path) === "path-specific")) {
    try {
      const { data, body } = readFrontmatter(file.text, file.path);
      const globs = globList(data.applyTo, "applyTo");
      if (globList(data.excludeAgent, "excludeAgent").includes(excluded)) applied.push(`not applied: ${file.path} (excludeAgent: ${excluded})`);
      else if (globs.length === 0) applied.push(`not applied: ${file.path} (no applyTo)`);
      else if (body.trim() === "") applied.push(`not applied: ${file.path} (no instructions after the frontmatter)`);
      else out.push({ file, globs, matches: picomatch(globs, { dot: true }), body: body.replace(/^\s*\n/, "") });
    } catch (error) {
      // A DefinitionError reads "<file>: <field>: <problem>"; the file is named here already.
      const problem = `${file.path}: not applied (${(error as Error).message.replace(`${file.path}: `, "")})`;
      problems.push(problem);
      applied.push(`not applied: ${problem}`);
    }
  }
  return out;
}

/** `applyTo: "**\/*.ts,**\/*.tsx"` (GitHub's form: comma-separated) or a YAML list; a leading `./` or `/` is dropped. */
function globList(value: unknown, key: string): string[] {
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value : [value];
  if (!items.every((v) => typeof v === "string")) throw new Error(`${key}: expected a string or a list of strings`);
  return (items as string[]).flatMap((v) => v.split(",")).map((g) => g.trim().replace(/^\.?\//, "")).filter((g) => g !== "");
}

function configuredCandidate(name: string, text: string, covers: string): Candidate {
  return { name, covers, source: `${name}, for ${covers}`, text };
}

function nestedCandidate(file: InstructionFile, from: string, hits?: string[]): Candidate {
  const dir = path.posix.dirname(file.path);
  const covers = `the files under ${dir}/ (where no nearer AGENTS.md or CLAUDE.md is)`;
  const source = hits ? `${file.path}${from}, nearest to ${listed(hits)}` : `${file.path}${from}, for ${covers}`;
  return { name: file.path, covers, source, text: file.text, truncated: file.truncated };
}

function scopedCandidate(s: PathSpecific, from: string, hits?: string[]): Candidate {
  const covers = `the files matching ${s.globs.join(", ")}`;
  const source = hits ? `${s.file.path}${from}, applyTo ${s.globs.join(", ")}: ${listed(hits)}` : `${s.file.path}${from}, for ${covers}`;
  return { name: s.file.path, covers, source, text: s.body, truncated: s.file.truncated };
}

/** For each path, the `AGENTS.md`/`CLAUDE.md` of the nearest folder above it that has one (the root's are given anyway). */
function nearestFor(nested: readonly InstructionFile[], paths: readonly string[], from: string): Candidate[] {
  const byDir = new Map<string, InstructionFile[]>();
  for (const f of nested) byDir.set(path.posix.dirname(f.path), [...(byDir.get(path.posix.dirname(f.path)) ?? []), f]);
  const hits = new Map<InstructionFile, string[]>();
  for (const p of paths) {
    for (let dir = path.posix.dirname(p); dir !== "." && dir !== "/"; dir = path.posix.dirname(dir)) {
      const found = byDir.get(dir);
      if (!found) continue;
      for (const f of found) hits.set(f, [...(hits.get(f) ?? []), p]);
      break;
    }
  }
  return nested.filter((f) => hits.has(f)).map((f) => nestedCandidate(f, from, hits.get(f)));
}

function scopedFor(scoped: readonly PathSpecific[], paths: readonly string[], from: string): Candidate[] {
  return scoped.flatMap((s) => {
    const hits = paths.filter((p) => s.matches(p));
    return hits.length > 0 ? [scopedCandidate(s, from, hits)] : [];
  });
}

/** Instructions too long to include together, named with what each covers: the agent reads those it needs. */
function listing(all: readonly Candidate[], size: number, caps: InstructionCaps, from: string): Candidate {
  const lines = all.slice(0, MAX_LISTED).map((c) => `- ${c.name}: ${c.covers}`);
  if (all.length > MAX_LISTED) lines.push(`- … and ${all.length - MAX_LISTED} more`);
  const text = [
    `These instruction files cover parts of the repository. Together they are ${kb(size)}, over the ${kb(caps.totalChars)} cap, so they are not included here.`,
    "They are files of the checkout: before you change or judge a file, read the nearest AGENTS.md or CLAUDE.md above it and the .instructions.md files whose globs match it.",
    ...lines,
  ].join("\n");
  return { name: "listing", covers: "", source: `instructions for parts of the repository${from}`, text };
}

/** Each file cut at `fileChars`, and all of them at `totalChars`: what no longer fits is named in a last section. */
function withinCaps(parts: readonly Candidate[], caps: InstructionCaps, applied: string[]): Pick<ChosenInstructions, "sections" | "applied"> {
  const sections: ContextSection[] = [];
  const given: string[] = [];
  const leftOut: Candidate[] = [];
  let room = caps.totalChars;
  const noted = (text: string, cut: string) => (cut ? `${text}\n[… ${cut}]` : text);
  for (const part of parts) {
    let text = part.text;
    let cut = "";
    if (part.truncated || text.length > caps.fileChars) {
      text = text.slice(0, caps.fileChars);
      cut = `${part.name} truncated at ${kb(caps.fileChars)}`;
    }
    if (noted(text, cut).length > room) {
      if (room < MIN_PART_CHARS) {
        leftOut.push(part);
        continue;
      }
      cut = `${part.name} cut: the instructions together are capped at ${kb(caps.totalChars)}`;
      text = text.slice(0, Math.max(0, room - noted("", cut).length));
    }
    const section = { source: part.source, text: noted(text, cut) };
    room -= section.text.length;
    sections.push(section);
    given.push(cut ? `${part.source} [${cut}]` : part.source);
  }
  if (leftOut.length > 0) {
    const lines = leftOut.slice(0, MAX_LISTED).map((c) => `- ${c.source}`);
    const head = `These instructions apply too but did not fit (the instructions together are capped at ${kb(caps.totalChars)}):`;
    sections.push({ source: "instructions left out", text: [head, ...lines].join("\n") });
  }
  return { sections, applied: [...given, ...leftOut.map((c) => `left out (over the ${kb(caps.totalChars)} cap): ${c.source}`), ...applied] };
}
