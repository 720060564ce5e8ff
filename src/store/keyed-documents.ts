/**
 * The one primitive every store that merges into what it holds is written over: a keyed document's
 * atomic read → change → write. Each backend supplies it — `sqlite/sqlite-documents.ts` (one immediate
 * transaction), `redis/redis-documents.ts` (WATCH/MULTI, tried again when another writer came first) —
 * and the stores' merge rules (`review-documents.ts`, `learnings-documents.ts`, `ci-fix-documents.ts`)
 * are written once over it, knowing no backend.
 */

/** What a change makes of the stored document: the document to store (none: leave it as it is) and the caller's answer. */
export interface DocumentChange<D, A> {
  next?: D;
  answer: A;
}

/**
 * Sees the stored document (undefined when there is none). Pure: on Redis it runs again on the
 * newer document when another writer changed it meanwhile.
 */
export type Change<D, A> = (current: D | undefined) => DocumentChange<D, A>;

export interface KeyedDocuments<K, D> {
  read(key: K): Promise<D | undefined>;
  /** Atomic: no other update of the same document lands between this one's read and its write. */
  update<A>(key: K, change: Change<D, A>): Promise<A>;
}

/** A backend's collection of one kind of document, with what a store also needs of it. */
export interface DocumentCollection<K, D> extends KeyedDocuments<K, D> {
  /** Forgets documents last written before `before` (epoch ms); returns how many. */
  prune(before: number): Promise<number>;
  close(): Promise<void>;
}

/** A backend's documents with the upkeep its store also needs: the collection a store is written over. */
export function documentCollection<K, D>(docs: KeyedDocuments<K, D>, upkeep: Pick<DocumentCollection<K, D>, "prune" | "close">): DocumentCollection<K, D> {
  return { read: (key) => docs.read(key), update: (key, change) => docs.update(key, change), ...upkeep };
}

/** A pull request's documents are keyed by its repository (`owner/repo`, lower-cased) and number. */
export interface PullRequestKey {
  repo: string;
  number: number;
}

/** The key, checked alike by every store: a malformed one never reaches a backend. */
export function pullRequestKey(repoKey: string, number: number): PullRequestKey {
  if (typeof repoKey !== "string" || !/^[^/\s]+\/[^/\s]+$/.test(repoKey)) throw new TypeError("repoKey must be owner/repo");
  if (!Number.isSafeInteger(number) || number < 1) throw new TypeError("a pull request number must be a positive integer");
  return { repo: repoKey.toLowerCase(), number };
}
