/**
 * The review store on Redis, next to the Redis queue: one hash per pull request,
 * `<prefix>:review:<owner/repo>#<number>` (headSha, fingerprints JSON, findings JSON — absent on hashes
 * written before findings were kept —, reviewedAt, and version, which each write bumps for processes
 * of older versions that compare it). The merge is `review-documents.ts`; this file only says where a
 * pull request's document lives.
 */
import { loadFindings, type ReviewState } from "../../review/review-store.js";
import { documentCollection, type PullRequestKey } from "../keyed-documents.js";
import { ReviewDocumentStore } from "../review-documents.js";
import { pruneHashes } from "./prune.js";
import { RedisDocuments } from "./redis-documents.js";
import { RedisConnection, type RedisHashStoreOptions } from "./redis-connection.js";

export type RedisReviewStoreOptions = RedisHashStoreOptions;

export class RedisReviewStore extends ReviewDocumentStore {
  readonly prefix: string;

  constructor(opts: RedisReviewStoreOptions) {
    const conn = new RedisConnection("RedisReviewStore", opts);
    const { redis, prefix, keepMs } = conn;
    const key = ({ repo, number }: PullRequestKey): string => `${prefix}:review:${repo}#${number}`;
    const docs = new RedisDocuments<PullRequestKey, ReviewState>(
      redis,
      {
        watched: (k) => [key(k)],
        read: async (r, k) => {
          const h = await r.hgetall(key(k));
          if (!h.headSha) return undefined;
          return { headSha: h.headSha, fingerprints: JSON.parse(h.fingerprints ?? "[]"), findings: loadFindings(h.findings), reviewedAt: Number(h.reviewedAt) };
        },
        write: (tx, k, doc) => {
          tx.hset(key(k), { headSha: doc.headSha, fingerprints: JSON.stringify(doc.fingerprints), findings: JSON.stringify(doc.findings), reviewedAt: String(doc.reviewedAt) });
          tx.hincrby(key(k), "version", 1);
          // Each write pushes the key's expiry out again.
          tx.pexpire(key(k), keepMs);
        },
      },
      ({ repo, number }) => `the review of ${repo}#${number}`,
    );
    super(
      documentCollection(docs, {
        // Records expire by themselves; this also deletes old ones written before expiries were set.
        prune: (before) => pruneHashes(redis, `${prefix}:review:*`, "reviewedAt", before),
        close: () => conn.close(),
      }),
      conn.now,
    );
    this.prefix = prefix;
  }
}
