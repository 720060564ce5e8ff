/**
 * Learning candidates as every store keeps them: the key of a lesson (its source and its kind,
 * normalised), the path globs its sightings point at, one sighting per thread and source, the
 * caps, and when a candidate is due for the learnings pull request. Pure.
 */
import { cleanText } from "../text/clean-text.js";
import type { Candidate, CandidateSighting, CandidateSource } from "./types.js";

/** Candidates kept per repository: the one seen longest ago goes first. */
export const MAX_CANDIDATES = 500;
/** Sightings kept per candidate (the newest); `count` keeps counting past it. */
export const MAX_SIGHTINGS = 50;
/** A sighting's text (a finding's words, a writer's reply): data for the model, cut here. */
export const MAX_SIGHTING_TEXT = 1000;
/** A kind: a short description, not a paragraph. */
export const MAX_KIND_CHARS = 60;

const SOURCES: readonly CandidateSource[] = ["dismissed", "suggestion-accepted", "suggestion-refused", "rule"];

/** What the store keeps: a candidate with how many sightings it ever had (the list keeps the newest `MAX_SIGHTINGS`). */
export type StoredCandidate = Candidate & { count: number };

/** Trailing space and closing punctuation cut off, by hand: `/[\s.,;:!]+$/` rescans a long run from each of its characters. */
function withoutClosing(text: string): string {
  let end = text.length;
  while (end > 0 && /[\s.,;:!]/.test(text[end - 1]!)) end--;
  return text.slice(0, end);
}

/**
 * A kind as keys compare it: its first line, hidden text taken out, lower case, spacing collapsed,
 * emphasis and closing punctuation dropped, at most 60 characters (cut at a word).
 */
export function normaliseKind(text: string): string {
  const first = cleanText(text).split("\n").map((l) => l.trim()).find((l) => l !== "") ?? "";
  const plain = withoutClosing(first.toLowerCase().replace(/[\u2018\u2019´]/g, "'").replace(/[*_~]+/g, "").replace(/\s+/g, " ")).trim();
  if (plain.length <= MAX_KIND_CHARS) return plain;
  const cut = plain.slice(0, MAX_KIND_CHARS + 1);
  const space = cut.lastIndexOf(" ");
  return (space > MAX_KIND_CHARS / 2 ? cut.slice(0, space) : cut.slice(0, MAX_KIND_CHARS)).trim();
}

/** The same lesson taught twice has one key: source and normalised kind. */
export const candidateKey = (source: CandidateSource, kind: string): string => `${source}:${normaliseKind(kind)}`;

/**
 * The globs a candidate's paths point at: the deepest folder they share, as `folder/**`; one file
 * at the repository's root is itself; files with no folder in common are `**`. None without paths.
 */
export function pathGlobs(paths: readonly (string | undefined)[]): string[] {
  const files = [...new Set(paths.flatMap((p) => (p ? [p.replace(/^\.?\/+/, "")] : [])).filter((p) => p !== ""))];
  if (files.length === 0) return [];
  if (files.length === 1 && !files[0]!.includes("/")) return [files[0]!];
  const folders = files.map((f) => f.split("/").slice(0, -1));
  const common: string[] = [];
  for (let i = 0; folders.every((f) => i < f.length && f[i] === folders[0]![i]); i++) common.push(folders[0]![i]!);
  return [common.length === 0 ? "**" : `${common.join("/")}/**`];
}

/** Cuts a text to `max` characters, marking the cut. */
function capped(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A sighting checked and cleaned as the store keeps it (throws on a bad one). */
export function cleanSighting(s: CandidateSighting): CandidateSighting {
  if (!s || !SOURCES.includes(s.source)) throw new TypeError(`a sighting's source must be one of ${SOURCES.join(", ")}`);
  if (typeof s.url !== "string" || !/^https?:\/\/\S+$/.test(s.url)) throw new TypeError("a sighting needs its thread's url");
  if (!Number.isSafeInteger(s.number) || s.number < 1) throw new TypeError("a sighting's pull request number must be a positive integer");
  if (typeof s.by !== "string" || s.by.trim() === "") throw new TypeError("a sighting needs the writer's login");
  if (!Number.isFinite(s.at)) throw new TypeError("a sighting needs its time");
  const kind = normaliseKind(typeof s.kind === "string" ? s.kind : "");
  if (kind === "") throw new TypeError("a sighting needs a kind");
  const text = capped(cleanText(typeof s.text === "string" ? s.text : "").trim(), MAX_SIGHTING_TEXT);
  return { source: s.source, url: s.url, number: s.number, by: s.by, at: s.at, kind, text, ...(typeof s.path === "string" && s.path !== "" ? { path: s.path } : {}) };
}

/**
 * The candidate after a sighting (made on first sight): a thread already counted for this
 * candidate counts once (`added` false, nothing changes); else it is kept (the newest
 * `MAX_SIGHTINGS`), counted, and the globs and times follow.
 */
export function withSighting(was: StoredCandidate | undefined, sighting: CandidateSighting): { candidate: StoredCandidate; added: boolean } {
  const s = cleanSighting(sighting);
  if (was?.sightings.some((x) => x.url === s.url && x.source === s.source)) return { candidate: was, added: false };
  const sightings = [...(was?.sightings ?? []), s].slice(-MAX_SIGHTINGS);
  const candidate: StoredCandidate = {
    ...{ key: candidateKey(s.source, s.kind), source: s.source, kind: s.kind, paths: pathGlobs(sightings.map((x) => x.path)), sightings },
    ...(was?.proposedIn ? { proposedIn: was.proposedIn } : {}),
    ...{ firstSeen: Math.min(was?.firstSeen ?? s.at, s.at), lastSeen: Math.max(was?.lastSeen ?? s.at, s.at), count: (was?.count ?? was?.sightings.length ?? 0) + 1 },
  };
  return { candidate, added: true };
}

/**
 * Whether a sighting makes its candidate due for the learnings pull request: it was new, the
 * candidate now has `proposeAfter` sightings, and no learnings pull request proposed it yet (a
 * proposal is never made twice: a person merged it, edited it or vetoed it).
 */
export const isDue = (result: Candidate & { added?: boolean }, proposeAfter: number): boolean =>
  result.added !== false && result.proposedIn === undefined && (result.count ?? result.sightings.length) >= proposeAfter;

/** A candidate read back (another version, damaged JSON): undefined when it cannot be used. */
export function loadCandidate(json: string | undefined | null): StoredCandidate | undefined {
  try {
    const c = JSON.parse(json ?? "null") as StoredCandidate | null;
    if (!c || typeof c.key !== "string" || !SOURCES.includes(c.source) || !Array.isArray(c.sightings)) return undefined;
    return { ...c, paths: Array.isArray(c.paths) ? c.paths : [], count: Number.isSafeInteger(c.count) ? c.count : c.sightings.length };
  } catch {
    return undefined;
  }
}

/** The repository key every learnings store takes: `owner/repo`. */
export function checkRepoKey(repoKey: string): string {
  if (typeof repoKey !== "string" || !/^[^/\s:]+\/[^/\s:]+$/.test(repoKey)) throw new TypeError("repoKey must be owner/repo");
  return repoKey.toLowerCase();
}
