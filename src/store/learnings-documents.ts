/**
 * The learnings store, written once over the keyed-document primitive: a sighting merges into its
 * candidate (`withSighting`), a proposal marks candidates, a use moves its learning's last use forward
 * only — each an atomic update of one document, whichever backend holds it. The backend supplies the
 * documents and the reads over many of them (lists, usage counts, pruning).
 */
import { checkRepoKey, withSighting, type StoredCandidate } from "../learnings/candidates.js";
import { checkUses, type LearningUsage, type PrunableLearningsStore, type SightingResult } from "../learnings/learnings-store.js";
import type { CandidateSighting, LearningUse } from "../learnings/types.js";
import type { KeyedDocuments } from "./keyed-documents.js";

/** A candidate is keyed by its repository and its own key. */
export interface CandidateKey {
  repo: string;
  key: string;
}

/** A learning's last use is keyed by its repository and the learning's id. */
export interface LearningKey {
  repo: string;
  id: string;
}

export interface LearningsBackend {
  /** One candidate each; a write also keeps the repository within `MAX_CANDIDATES`, dropping the one seen longest ago. */
  candidates: KeyedDocuments<CandidateKey, StoredCandidate>;
  /** Epoch ms of each learning's last use ever. */
  lastUse: KeyedDocuments<LearningKey, number>;
  /** Every candidate of the repository, oldest first. */
  listCandidates(repo: string): Promise<StoredCandidate[]>;
  /** Stores one use (its learning and job once: written again, it replaces). */
  addUse(repo: string, use: LearningUse): Promise<void>;
  usage(repo: string, since: number): Promise<Map<string, LearningUsage>>;
  lastUses(repo: string): Promise<Map<string, number>>;
  prune(before: number): Promise<number>;
  close(): Promise<void>;
}

export class LearningsDocumentStore implements PrunableLearningsStore {
  constructor(private readonly backend: LearningsBackend) {}

  async addSighting(repoKey: string, sighting: CandidateSighting): Promise<SightingResult> {
    const repo = checkRepoKey(repoKey);
    const key = withSighting(undefined, sighting).candidate.key;
    return this.backend.candidates.update<SightingResult>({ repo, key }, (was) => {
      const { candidate, added } = withSighting(was, sighting);
      return added ? { next: candidate, answer: { ...candidate, added } } : { answer: { ...candidate, added } };
    });
  }

  async candidates(repoKey: string): Promise<StoredCandidate[]> {
    return this.backend.listCandidates(checkRepoKey(repoKey));
  }

  async markProposed(repoKey: string, keys: readonly string[], prUrl: string): Promise<void> {
    const repo = checkRepoKey(repoKey);
    if (typeof prUrl !== "string" || prUrl === "") throw new TypeError("markProposed needs the pull request's url");
    for (const key of new Set(keys)) {
      await this.backend.candidates.update({ repo, key }, (was) => (was ? { next: { ...was, proposedIn: prUrl }, answer: undefined } : { answer: undefined }));
    }
  }

  async recordUses(repoKey: string, uses: readonly LearningUse[]): Promise<void> {
    const repo = checkRepoKey(repoKey);
    checkUses(uses);
    for (const u of uses) {
      await this.backend.addUse(repo, u);
      await this.backend.lastUse.update({ repo, id: u.id }, (was) => (was !== undefined && was >= u.at ? { answer: undefined } : { next: u.at, answer: undefined }));
    }
  }

  async usage(repoKey: string, since: number): Promise<Map<string, LearningUsage>> {
    return this.backend.usage(checkRepoKey(repoKey), since);
  }

  async lastUses(repoKey: string): Promise<Map<string, number>> {
    return this.backend.lastUses(checkRepoKey(repoKey));
  }

  prune(before: number): Promise<number> {
    return this.backend.prune(before);
  }

  close(): Promise<void> {
    return this.backend.close();
  }
}
