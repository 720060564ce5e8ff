/**
 * What one learnings proposal holds, decided from the candidates, the files and the uses: which
 * candidates are due, which merged learnings are stale, the file the pull request starts from
 * (the branch's, with what changed on the default branch since), and the file it proposes. Pure.
 */
import { createHash } from "node:crypto";
import { fileBlocks, parseLearnings, renderBullet, renderLearnings, type FileBlock, type Learning, type LearningsFile } from "./learnings-file.js";
import type { Candidate, CandidateSource } from "./types.js";

export const DAY_MS = 24 * 60 * 60 * 1000;



/** Candidates not yet proposed that repeated `proposeAfter` times, or every one of them on `/crewbot learn`. */
export function dueCandidates(candidates: readonly Candidate[], o: { all: boolean; proposeAfter: number }): Candidate[] {
  return candidates.filter((c) => c.proposedIn === undefined && c.sightings.length > 0 && (o.all || (c.count ?? c.sightings.length) >= o.proposeAfter));
}

/** The id of the learning crewbot writes for a candidate: the same candidate always gets the same bullet id. */
export const candidateLearningId = (key: string): string => createHash("sha256").update(`candidate:${key}`).digest("hex").slice(0, 8);

export interface StaleLearning {
  learning: Learning;
  /** The last review that used it (epoch ms); undefined when none ever did. */
  lastUsed?: number;
}

/**
 * Merged learnings no review used for `staleDays`: the last use is older, or there never was
 * one and the default branch's file already held the learning `staleDays` ago (`heldThen`, its
 * ids then; undefined when the file did not exist then).
 */
export function staleLearnings(
  merged: readonly Learning[],
  o: { lastUses: ReadonlyMap<string, number>; heldThen: ReadonlySet<string> | undefined; now: number; staleDays: number },
): StaleLearning[] {
  const cutoff = o.now - o.staleDays * DAY_MS;
  return merged.flatMap((learning): StaleLearning[] => {
    const lastUsed = o.lastUses.get(learning.id);
    if (lastUsed !== undefined) return lastUsed < cutoff ? [{ learning, lastUsed }] : [];
    return o.heldThen?.has(learning.id) ? [{ learning }] : [];
  });
}

/** The file a proposal starts from: its learnings, and its text as people wrote it, in blocks. */
export interface StartingFile extends LearningsFile {
  /** Empty when there is no file yet (crewbot then writes its default preamble). */
  blocks: FileBlock[];
}

/**
 * The file a proposal starts from. Without an open pull request: the default branch's. With one:
 * the branch's (a person's edits there are theirs), with what the default branch changed since
 * the branch's base carried over by id — learnings added there joined (their lines as written),
 * learnings removed there dropped — so the pull request never undoes an edit made on either side.
 */
export function startingFile(files: { onDefault?: string; onBranch?: string; atBase?: string }): StartingFile {
  const onDefault = parseLearnings(files.onDefault ?? "");
  if (files.onBranch === undefined) return { ...onDefault, blocks: fileBlocks(files.onDefault ?? "") };
  const branch = parseLearnings(files.onBranch);
  const baseIds = new Set(parseLearnings(files.atBase ?? "").learnings.map((l) => l.id));
  const defaultIds = new Set(onDefault.learnings.map((l) => l.id));
  const branchIds = new Set(branch.learnings.map((l) => l.id));
  const removedOnDefault = new Set([...baseIds].filter((id) => !defaultIds.has(id)));
  const addedOnDefault = onDefault.learnings.filter((l) => !baseIds.has(l.id) && !branchIds.has(l.id));
  const added = new Set(addedOnDefault.map((l) => l.id));
  const blocks = [
    ...fileBlocks(files.onBranch).filter((b) => b.id === undefined || !removedOnDefault.has(b.id)),
    ...fileBlocks(files.onDefault ?? "").filter((b) => b.id !== undefined && added.has(b.id)),
  ];
  return { preamble: branch.preamble, learnings: [...branch.learnings.filter((l) => !removedOnDefault.has(l.id)), ...addedOnDefault], blocks };
}

/**
 * The proposed file: the starting one without the stale learnings, the new ones after it (an id
 * already there is not added twice). Every other byte of the starting file is kept as written;
 * without a file, crewbot's default preamble starts it.
 */
export function proposedFile(start: StartingFile, added: ReadonlyArray<{ id: string; text: string }>, removed: ReadonlySet<string>): string {
  const kept = start.learnings.filter((l) => !removed.has(l.id));
  const ids = new Set(kept.map((l) => l.id));
  const fresh = added.filter((l) => !ids.has(l.id) && !removed.has(l.id));
  if (start.blocks.length === 0) return renderLearnings({ preamble: start.preamble, learnings: [...kept, ...fresh] });
  const blocks = start.blocks.filter((b) => b.id === undefined || !removed.has(b.id));
  const text = blocks.map((b) => b.raw).join("");
  if (fresh.length === 0) return text;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const last = blocks.at(-1);
  // The new bullets start on a line of their own, after a blank line unless a bullet ends the file.
  const gap = (last && !/[\r\n]$/.test(last.raw) ? eol : "") + (last && last.id === undefined && last.raw.trim() !== "" ? eol : "");
  return `${text}${gap}${fresh.map((l) => renderBullet(l).split("\n").join(eol) + eol).join("")}`;
}

const NOUNS: Record<CandidateSource, [string, string]> = {
  dismissed: ["dismissal", "dismissals"],
  "suggestion-accepted": ["accepted suggestion", "accepted suggestions"],
  "suggestion-refused": ["refused suggestion", "refused suggestions"],
  rule: ["reply", "replies"],
};

/** At most this many thread links per learning; the rest are counted. */
export const MAX_SOURCE_LINKS = 10;

/**
 * The sources crewbot appends to a learning, from the candidate only: how often and how it was
 * taught, and a link to each thread (`[#12](…)`), oldest first.
 */
export function learningSources(candidate: Candidate): string {
  const seen = new Set<string>();
  const sightings = [...candidate.sightings].sort((a, b) => a.at - b.at).filter((s) => !seen.has(s.url) && seen.add(s.url));
  const [one, many] = NOUNS[candidate.source];
  const links = sightings.slice(0, MAX_SOURCE_LINKS).map((s) => `[#${s.number}](${s.url})`);
  if (sightings.length > MAX_SOURCE_LINKS) links.push(`${sightings.length - MAX_SOURCE_LINKS} more`);
  const count = candidate.sightings.length;
  return `(${count} ${count === 1 ? one : many}: ${links.join(", ")})`;
}

/** A learning's bullet text: the model's checked words, then crewbot's sources. */
export function learningText(words: string, candidate: Candidate): string {
  return `${words.replace(/[.\s]+$/, "")} ${learningSources(candidate)}`;
}
