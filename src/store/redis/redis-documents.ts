/**
 * The keyed-document primitive on Redis: compare-and-swap with WATCH/MULTI. The document's keys are
 * watched, it is read and changed in this process, and the write is one MULTI that Redis refuses when
 * any watched key changed meanwhile (another process's write, or a script's); then it reads again.
 * WATCH belongs to the connection, so one connection's updates take turns.
 */
import type { ChainableCommander, Redis } from "ioredis";
import { documentCollection, type Change, type DocumentCollection, type KeyedDocuments, type PullRequestKey } from "../keyed-documents.js";
import { pruneHashes } from "./prune.js";
import type { RedisConnection } from "./redis-connection.js";

/** Where a kind of document lives on Redis. */
export interface DocumentLayout<K, D> {
  /** The keys its read looks at: a write to any of them meanwhile makes the update try again. */
  watched(key: K): string[];
  read(redis: Redis, key: K): Promise<D | undefined>;
  /** Queues the write on `tx`; may read more first (still under the watch). */
  write(tx: ChainableCommander, key: K, doc: D, redis: Redis): Promise<void> | void;
}

/** Tries before an update gives up: only a document written this often by others loses them all. */
const MAX_TRIES = 50;

/** Each connection's turn: its updates run one after another. */
const turns = new WeakMap<Redis, Promise<unknown>>();

/**
 * Runs `work` in the connection's turn, after the updates (and other turns) queued before it. Any
 * other MULTI/EXEC on a connection whose documents are updated must run so: an EXEC clears every
 * WATCH of the connection, so one between an update's WATCH and its EXEC would leave that write
 * unguarded, and a MULTI queued under another's WATCH would be refused with it.
 */
export function inTurn<T>(redis: Redis, work: () => Promise<T>): Promise<T> {
  const run = (turns.get(redis) ?? Promise.resolve()).then(work);
  turns.set(redis, run.catch(() => {}));
  return run;
}

export class RedisDocuments<K, D> implements KeyedDocuments<K, D> {
  constructor(
    private readonly redis: Redis,
    private readonly layout: DocumentLayout<K, D>,
    /** Names the document in the error of an update that kept losing. */
    private readonly describe: (key: K) => string,
  ) {}

  async read(key: K): Promise<D | undefined> {
    return this.layout.read(this.redis, key);
  }

  update<A>(key: K, change: Change<D, A>): Promise<A> {
    return inTurn(this.redis, () => this.swap(key, change));
  }

  private async swap<A>(key: K, change: Change<D, A>): Promise<A> {
    const redis = this.redis;
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      await redis.watch(...this.layout.watched(key));
      let queued = false;
      try {
        const { next, answer } = change(await this.layout.read(redis, key));
        if (next === undefined) return answer;
        const tx = redis.multi();
        await this.layout.write(tx, key, next, redis);
        queued = true;
        const replies = await tx.exec();
        // null: a watched key changed, nothing was written.
        if (replies === null) continue;
        const failed = replies.find(([err]) => err);
        if (failed) throw failed[0];
        return answer;
      } finally {
        if (!queued) await redis.unwatch();
      }
    }
    throw new Error(`updating ${this.describe(key)} kept racing other writers`);
  }
}

/** Where one kind of pull-request document lives: `<prefix>:<space>:<owner/repo>#<n>`, a hash. */
export interface PullRequestHashLayout<D> {
  space: string;
  /** The hash field holding the document's time (epoch ms): older ones are pruned. */
  timeField: string;
  /** Names one document in errors, e.g. "the review of". */
  noun: string;
  read(hash: Record<string, string>): D | undefined;
  /** Queues the document's fields on `tx` (its expiry is set after). */
  write(tx: ChainableCommander, key: string, doc: D): void;
}

/**
 * A collection of one hash per pull request over the connection: updated by compare-and-swap, each
 * write pushing the key's expiry out to the retention period, and pruned by its time field (hashes
 * written before expiries were set are deleted all the same).
 */
export function pullRequestHashes<D>(conn: RedisConnection, layout: PullRequestHashLayout<D>): DocumentCollection<PullRequestKey, D> {
  const { redis, prefix, keepMs } = conn;
  const key = ({ repo, number }: PullRequestKey): string => `${prefix}:${layout.space}:${repo}#${number}`;
  const docs = new RedisDocuments<PullRequestKey, D>(
    redis,
    {
      watched: (k) => [key(k)],
      read: async (r, k) => layout.read(await r.hgetall(key(k))),
      write: (tx, k, doc) => {
        layout.write(tx, key(k), doc);
        tx.pexpire(key(k), keepMs);
      },
    },
    ({ repo, number }) => `${layout.noun} ${repo}#${number}`,
  );
  return documentCollection(docs, {
    prune: (before) => pruneHashes(redis, `${prefix}:${layout.space}:*`, layout.timeField, before),
    close: () => conn.close(),
  });
}
