/**
 * The ci-fix round counts on Redis, next to the Redis queue: one hash per pull request,
 * `<prefix>:cifix:<owner/repo>#<number>` (rounds, stopped, updatedAt, lastJob, lastHead). The rules are
 * `ci-fix-documents.ts`, applied by compare-and-swap, so two workers never take the same round; this
 * file only says where a pull request's count lives. Keys expire after the retention period.
 */
import { RoundsDocumentStore, type RoundsDoc } from "../ci-fix-documents.js";
import { documentCollection, type PullRequestKey } from "../keyed-documents.js";
import { pruneHashes } from "./prune.js";
import { RedisConnection, type RedisHashStoreOptions } from "./redis-connection.js";
import { RedisDocuments } from "./redis-documents.js";

export type RedisCiFixRoundsOptions = RedisHashStoreOptions;

export class RedisCiFixRounds extends RoundsDocumentStore {
  readonly prefix: string;

  constructor(opts: RedisCiFixRoundsOptions) {
    const conn = new RedisConnection("RedisCiFixRounds", opts);
    const { redis, prefix, keepMs } = conn;
    const key = ({ repo, number }: PullRequestKey): string => `${prefix}:cifix:${repo}#${number}`;
    const docs = new RedisDocuments<PullRequestKey, RoundsDoc>(
      redis,
      {
        watched: (k) => [key(k)],
        read: async (r, k) => {
          const h = await r.hgetall(key(k));
          if (h.rounds === undefined) return undefined;
          const doc: RoundsDoc = { rounds: Number(h.rounds), stopped: h.stopped === "1", updatedAt: Number(h.updatedAt) };
          if (h.lastJob) doc.lastJob = h.lastJob;
          if (h.lastHead) doc.lastHead = h.lastHead;
          return doc;
        },
        write: (tx, k, doc) => {
          tx.hset(key(k), { rounds: String(doc.rounds), stopped: doc.stopped ? "1" : "0", updatedAt: String(doc.updatedAt) });
          if (doc.lastJob !== undefined) tx.hset(key(k), "lastJob", doc.lastJob);
          else tx.hdel(key(k), "lastJob");
          if (doc.lastHead !== undefined) tx.hset(key(k), "lastHead", doc.lastHead);
          else tx.hdel(key(k), "lastHead");
          tx.pexpire(key(k), keepMs);
        },
      },
      ({ repo, number }) => `the ci-fix rounds of ${repo}#${number}`,
    );
    super(
      documentCollection(docs, {
        // Counts expire by themselves; this deletes old ones all the same.
        prune: (before) => pruneHashes(redis, `${prefix}:cifix:*`, "updatedAt", before),
        close: () => conn.close(),
      }),
      conn.now,
    );
    this.prefix = prefix;
  }
}
