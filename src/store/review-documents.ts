/**
 * The review store, written once over the keyed-document primitive: a record merges the new
 * fingerprints and findings into the pull request's document (`mergeFingerprints`, `mergeFindings`)
 * in one atomic update, whichever backend holds it.
 */
import { checkRecord, mergeFindings, mergeFingerprints, type FindingsUpdate, type ReviewState, type ReviewStore } from "../review/review-store.js";
import { pullRequestKey, type DocumentCollection, type PullRequestKey } from "./keyed-documents.js";

export type ReviewDocuments = DocumentCollection<PullRequestKey, ReviewState>;

export class ReviewDocumentStore implements ReviewStore {
  constructor(
    private readonly docs: ReviewDocuments,
    private readonly now: () => number,
  ) {}

  async get(repoKey: string, number: number): Promise<ReviewState | undefined> {
    return this.docs.read(pullRequestKey(repoKey, number));
  }

  async record(repoKey: string, number: number, headSha: string, newFingerprints: string[], findings?: FindingsUpdate): Promise<void> {
    const key = pullRequestKey(repoKey, number);
    checkRecord(headSha, newFingerprints, findings);
    const reviewedAt = this.now();
    await this.docs.update(key, (was) => ({
      next: {
        headSha,
        fingerprints: mergeFingerprints(was?.fingerprints ?? [], newFingerprints),
        findings: mergeFindings(was?.findings ?? [], findings),
        reviewedAt,
      },
      answer: undefined,
    }));
  }

  prune(before: number): Promise<number> {
    return this.docs.prune(before);
  }

  close(): Promise<void> {
    return this.docs.close();
  }
}
