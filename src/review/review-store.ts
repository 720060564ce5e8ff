/** What automatic reviews remember per pull request: the head they last reviewed and the findings already posted. */

export interface ReviewState {
  headSha: string;
  /** Oldest first. */
  fingerprints: string[];
  /** Epoch ms of the last `record`. */
  reviewedAt: number;
}

export interface ReviewStore {
  get(repoKey: string, number: number): Promise<ReviewState | undefined>;
  /** After a posted (or clean) review: the new head sha, and the fingerprints added to those kept (deduplicated, at most 5000 kept, newest win). */
  record(repoKey: string, number: number, headSha: string, newFingerprints: string[]): Promise<void>;
  /** Forgets pull requests last reviewed before `before` (epoch ms); returns how many. */
  prune(before: number): Promise<number>;
  close(): Promise<void>;
}

/** How many fingerprints a pull request keeps; the oldest go first. */
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
