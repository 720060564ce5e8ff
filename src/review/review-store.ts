/**
 * What reviews remember per pull request: the head they last reviewed, the fingerprints of the
 * findings posted (never posted twice), and each posted finding with its severity — what the
 * `crewbot/review` gate counts until a writer closes it or a push changes its lines.
 */
import type { Severity } from "./types.js";

/** One finding crewbot posted, as the gate needs it. */
export interface StoredFinding {
  fingerprint: string;
  severity: Severity;
  path: string;
  /** Its lines on `commit` (RIGHT side). */
  line: number;
  endLine?: number;
  /** The first line of its text, short. */
  title: string;
  /** The head it was posted on: where its lines count. */
  commit: string;
  /** The review it was posted in. */
  url?: string;
  /** A later head changed its lines: closed for good. */
  fixed?: boolean;
  /** Its reproducer failed on the head it was posted on (`prove`): what `failOn: reproduced` counts. */
  reproduced?: boolean;
  /** The reviewer's kind of finding, normalised: what a writer's answer to its thread teaches. */
  kind?: string;
  /** It carried a replacement (`suggestion`): its line count and hash, to tell later whether it was applied. */
  suggestion?: SuggestionPrint;
}

/** A suggestion as a kept finding remembers it: the lines, normalised like code, hashed (not the text). */
export interface SuggestionPrint {
  lines: number;
  hash: string;
}

export interface ReviewState {
  headSha: string;
  /** Oldest first. */
  fingerprints: string[];
  /** Oldest first; empty for a pull request last recorded before findings were kept. */
  findings: StoredFinding[];
  /** Epoch ms of the last `record`. */
  reviewedAt: number;
}

/** What one review changes in the kept findings. */
export interface FindingsUpdate {
  /** Findings posted now. */
  posted?: StoredFinding[];
  /** Fingerprints of kept findings whose lines the new head changed. */
  fixed?: string[];
}

export interface ReviewStore {
  get(repoKey: string, number: number): Promise<ReviewState | undefined>;
  /**
   * After a posted (or clean) review: the new head sha, the fingerprints added to those kept
   * (deduplicated, at most 5000 kept, newest win), and the findings posted or fixed.
   */
  record(repoKey: string, number: number, headSha: string, newFingerprints: string[], findings?: FindingsUpdate): Promise<void>;
  /** Forgets pull requests last reviewed before `before` (epoch ms); returns how many. */
  prune(before: number): Promise<number>;
  close(): Promise<void>;
}

/** How many fingerprints (and findings) a pull request keeps; the oldest go first. */
export const MAX_FINGERPRINTS = 5000;

/** The store's key for a repository: `owner/repo`, lower-cased (GitHub names are case-insensitive). */
export const repoKey = (owner: string, repo: string): string => `${owner}/${repo}`.toLowerCase();

/**
 * The kept fingerprints after adding some: each once, at its newest position (one added again counts
 * as new), and only the newest `max`.
 */
export function mergeFingerprints(kept: readonly string[], added: readonly string[], max = MAX_FINGERPRINTS): string[] {
  const seen = new Set<string>();
  const newestFirst: string[] = [];
  const all = [...kept, ...added];
  for (let i = all.length - 1; i >= 0 && newestFirst.length < max; i--) {
    const fp = all[i]!;
    if (seen.has(fp)) continue;
    seen.add(fp);
    newestFirst.push(fp);
  }
  return newestFirst.reverse();
}

/**
 * The kept findings after a review: those posted now replace any kept with the same fingerprint,
 * the fixed ones are marked (never unmarked), and only the newest `max` stay.
 */
export function mergeFindings(kept: readonly StoredFinding[], update: FindingsUpdate = {}, max = MAX_FINGERPRINTS): StoredFinding[] {
  const fixed = new Set(update.fixed ?? []);
  const byPrint = new Map<string, StoredFinding>();
  for (const f of [...kept, ...(update.posted ?? [])]) {
    const was = byPrint.get(f.fingerprint);
    byPrint.delete(f.fingerprint);
    byPrint.set(f.fingerprint, was?.fixed ? { ...f, fixed: true } : f);
  }
  const all = [...byPrint.values()].map((f) => (fixed.has(f.fingerprint) && !f.fixed ? { ...f, fixed: true } : f));
  return all.slice(Math.max(0, all.length - max));
}

const SEVERITIES: readonly Severity[] = ["critical", "warning", "suggestion"];

/**
 * Stored findings as read back: an entry without a known severity (written by another version, or
 * damaged) counts as critical — the gate never opens on a finding whose weight it cannot tell — and
 * an entry without a fingerprint, path or line is dropped (nothing could ever close it).
 */
export function loadFindings(json: string | undefined | null): StoredFinding[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json ?? "[]");
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((e: Partial<StoredFinding> | null) => {
    if (!e || typeof e.fingerprint !== "string" || typeof e.path !== "string" || !Number.isSafeInteger(e.line)) return [];
    const severity = SEVERITIES.includes(e.severity as Severity) ? (e.severity as Severity) : "critical";
    return [{ ...e, severity, title: typeof e.title === "string" ? e.title : "", commit: typeof e.commit === "string" ? e.commit : "" } as StoredFinding];
  });
}

/** The record's arguments checked alike by every store. */
export function checkRecord(headSha: string, newFingerprints: string[], findings: FindingsUpdate = {}): void {
  if (typeof headSha !== "string" || !headSha) throw new TypeError("record needs a head sha");
  if (!Array.isArray(newFingerprints) || !newFingerprints.every((f) => typeof f === "string" && f)) {
    throw new TypeError("fingerprints must be non-empty strings");
  }
  const posted = findings.posted ?? [];
  if (!posted.every((f) => typeof f.fingerprint === "string" && f.fingerprint && SEVERITIES.includes(f.severity) && typeof f.path === "string" && Number.isSafeInteger(f.line))) {
    throw new TypeError("findings need a fingerprint, a severity, a path and a line");
  }
}
