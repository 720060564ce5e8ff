/**
 * The pause store, written once over the keyed-document primitive: a resume keeps the document
 * (paused: false) rather than deleting it, so both backends need only read and write; retention
 * forgets it.
 */
import type { Pause, PauseStore } from "../review/pauses.js";
import { pullRequestKey, type DocumentCollection, type PullRequestKey } from "./keyed-documents.js";

/** One pull request's pause; `updatedAt` is when it was last paused or resumed. */
export interface PauseDoc {
  paused: boolean;
  by: string;
  at: number;
  updatedAt: number;
}

export type PauseDocuments = DocumentCollection<PullRequestKey, PauseDoc>;

const pauseOf = (doc: PauseDoc | undefined): Pause | undefined => (doc?.paused ? { by: doc.by, at: doc.at } : undefined);

export class PauseDocumentStore implements PauseStore {
  constructor(
    private readonly docs: PauseDocuments,
    private readonly now: () => number,
  ) {}

  async get(repoKey: string, number: number): Promise<Pause | undefined> {
    return pauseOf(await this.docs.read(pullRequestKey(repoKey, number)));
  }

  async pause(repoKey: string, number: number, by: string): Promise<{ was?: Pause }> {
    if (typeof by !== "string" || !by) throw new TypeError("a pause needs who paused");
    const key = pullRequestKey(repoKey, number);
    const now = this.now();
    return this.docs.update<{ was?: Pause }>(key, (doc) => {
      const was = pauseOf(doc);
      return was ? { answer: { was } } : { next: { paused: true, by, at: now, updatedAt: now }, answer: {} };
    });
  }

  async resume(repoKey: string, number: number): Promise<{ was?: Pause }> {
    const key = pullRequestKey(repoKey, number);
    const now = this.now();
    return this.docs.update<{ was?: Pause }>(key, (doc) => {
      const was = pauseOf(doc);
      return was ? { next: { ...doc!, paused: false, updatedAt: now }, answer: { was } } : { answer: {} };
    });
  }

  prune(before: number): Promise<number> {
    return this.docs.prune(before);
  }

  close(): Promise<void> {
    return this.docs.close();
  }
}
