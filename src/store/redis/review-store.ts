/**
 * The review store on Redis, next to the Redis queue: one hash per pull request,
 * `<prefix>:review:<owner/repo>#<number>` (headSha, fingerprints JSON, findings JSON — absent on hashes
 * written before findings were kept —, reviewedAt, and version, which each write bumps for processes
 * of older versions that compare it). The merge is `review-documents.ts`; this file only says where a
 * pull request's document lives.
 */
import { loadFindings, type ReviewState } from "../../review/review-store.js";
import { ReviewDocumentStore } from "../review-documents.js";
import { RedisConnection, type RedisHashStoreOptions } from "./redis-connection.js";
import { pullRequestHashes } from "./redis-documents.js";

export type RedisReviewStoreOptions = RedisHashStoreOptions;

export class RedisReviewStore extends ReviewDocumentStore {
  constructor(opts: RedisReviewStoreOptions) {
    const conn = new RedisConnection("RedisReviewStore", opts);
    const reviews = pullRequestHashes<ReviewState>(conn, {
      space: "review",
      timeField: "reviewedAt",
      noun: "the review of",
      read: (h) => (h.headSha ? { headSha: h.headSha, fingerprints: JSON.parse(h.fingerprints ?? "[]"), findings: loadFindings(h.findings), reviewedAt: Number(h.reviewedAt) } : undefined),
      write: (tx, key, doc) => {
        tx.hset(key, { headSha: doc.headSha, fingerprints: JSON.stringify(doc.fingerprints), findings: JSON.stringify(doc.findings), reviewedAt: String(doc.reviewedAt) });
        tx.hincrby(key, "version", 1);
      },
    });
    super(reviews, conn.now);
  }
}
