/**
 * The pauses on Redis, next to the Redis queue: one hash per pull request,
 * `<prefix>:pause:<owner/repo>#<number>` (paused, by, at, updatedAt). The rules are
 * `pause-documents.ts`; this file only says where a pull request's pause lives. Keys expire after
 * the retention period.
 */
import { PauseDocumentStore, type PauseDoc } from "../pause-documents.js";
import { RedisConnection, type RedisHashStoreOptions } from "./redis-connection.js";
import { pullRequestHashes } from "./redis-documents.js";

export type RedisPausesOptions = RedisHashStoreOptions;

export class RedisPauses extends PauseDocumentStore {
  constructor(opts: RedisPausesOptions) {
    const conn = new RedisConnection("RedisPauses", opts);
    const pauses = pullRequestHashes<PauseDoc>(conn, {
      space: "pause",
      timeField: "updatedAt",
      noun: "the pause of",
      read: (h) => (h.paused === undefined ? undefined : { paused: h.paused === "1", by: h.by ?? "", at: Number(h.at), updatedAt: Number(h.updatedAt) }),
      write: (tx, key, doc) => {
        tx.hset(key, { paused: doc.paused ? "1" : "0", by: doc.by, at: String(doc.at), updatedAt: String(doc.updatedAt) });
      },
    });
    super(pauses, conn.now);
  }
}
