/**
 * The ci-fix round counts on Redis, next to the Redis queue: one hash per pull request,
 * `<prefix>:cifix:<owner/repo>#<number>` (rounds, stopped, updatedAt, lastJob, lastHead). The rules are
 * `ci-fix-documents.ts`, applied by compare-and-swap, so two workers never take the same round; this
 * file only says where a pull request's count lives. Keys expire after the retention period.
 */
import { RoundsDocumentStore, type RoundsDoc } from "../ci-fix-documents.js";
import { RedisConnection, type RedisHashStoreOptions } from "./redis-connection.js";
import { pullRequestHashes } from "./redis-documents.js";

export type RedisCiFixRoundsOptions = RedisHashStoreOptions;

export class RedisCiFixRounds extends RoundsDocumentStore {
  constructor(opts: RedisCiFixRoundsOptions) {
    const conn = new RedisConnection("RedisCiFixRounds", opts);
    const rounds = pullRequestHashes<RoundsDoc>(conn, {
      space: "cifix",
      timeField: "updatedAt",
      noun: "the ci-fix rounds of",
      read: (h) => {
        if (h.rounds === undefined) return undefined;
        const doc: RoundsDoc = { rounds: Number(h.rounds), stopped: h.stopped === "1", updatedAt: Number(h.updatedAt) };
        if (h.lastJob) doc.lastJob = h.lastJob;
        if (h.lastHead) doc.lastHead = h.lastHead;
        return doc;
      },
      write: (tx, key, doc) => {
        tx.hset(key, { rounds: String(doc.rounds), stopped: doc.stopped ? "1" : "0", updatedAt: String(doc.updatedAt) });
        if (doc.lastJob !== undefined) tx.hset(key, "lastJob", doc.lastJob);
        else tx.hdel(key, "lastJob");
        if (doc.lastHead !== undefined) tx.hset(key, "lastHead", doc.lastHead);
        else tx.hdel(key, "lastHead");
      },
    });
    super(rounds, conn.now);
  }
}
