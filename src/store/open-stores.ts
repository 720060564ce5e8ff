/**
 * Chooses crewbot's durable stores: BullMQ on Redis when `REDIS_URL` is set (any number of worker
 * processes on any machines share it), else the embedded SQLite file in the data directory. The
 * rest of the app sees only the interfaces (`JobQueue`, `ReviewStore`, `InstallationStore`, …).
 */
import { Redis } from "ioredis";
import { operatorLimits } from "../installations/limits.js";
import type { InstallationStore, UsageLedger } from "../installations/types.js";
import type { TranscriptStore } from "../transcripts/types.js";
import { RedisInstallations } from "./redis/installations.js";
import { RedisTranscriptStore } from "./redis/transcripts.js";
import { SqliteInstallations } from "./sqlite/installations.js";
import { SqliteTranscriptStore } from "./sqlite/transcripts.js";
import type { CiFixRounds } from "../queue/ci-fix-rounds.js";
import type { JobQueue } from "../queue/job-queue.js";
import { RedisCiFixRounds } from "./redis/ci-fix-rounds.js";
import { RedisQueue } from "./redis/job-queue.js";
import { RedisReviewStore } from "./redis/review-store.js";
import type { ReviewStore } from "../review/review-store.js";
import { SqliteCiFixRounds } from "./sqlite/ci-fix-rounds.js";
import { SqliteQueue } from "./sqlite/job-queue.js";
import { SqliteReviewStore } from "./sqlite/review-store.js";

export interface OpenedStores {
  queue: JobQueue;
  reviews: ReviewStore;
  /** Automatic ci-fix rounds per pull request, in the same store; absent in stand-ins that run no ci-fix. */
  ciFixRounds?: CiFixRounds;
  kind: "sqlite" | "redis";
  /** Closes both stores. */
  close(): Promise<void>;
}

export interface StoreEnv {
  /** Set: the Redis queue at this url. */
  REDIS_URL?: string | undefined;
  /** The Redis key prefix (default `crewbot`): deployments sharing one Redis keep apart by it. */
  REDIS_PREFIX?: string | undefined;
  /** Days review records are kept (their Redis keys expire then); a bad value stops the app, naming it. */
  CREWBOT_RETENTION_DAYS?: string | undefined;
}

/** Opens the job queue, the review store and the ci-fix rounds; with Redis, fails when the server cannot be reached. */
export async function openStores(env: StoreEnv, dataDir: string): Promise<OpenedStores> {
  const url = env.REDIS_URL?.trim();
  if (url) {
    const prefix = env.REDIS_PREFIX?.trim() || undefined;
    const opts = prefix ? { url, prefix } : { url };
    const queue = await RedisQueue.connect(opts);
    const retentionDays = operatorLimits({ CREWBOT_RETENTION_DAYS: env.CREWBOT_RETENTION_DAYS }).retentionDays;
    const reviews = new RedisReviewStore({ ...opts, retentionDays });
    const ciFixRounds = new RedisCiFixRounds({ ...opts, retentionDays });
    return { queue, reviews, ciFixRounds, kind: "redis", close: () => closeBoth(queue, reviews, ciFixRounds) };
  }
  return openSqliteStores(dataDir);
}

/** The embedded stores, all in `<dataDir>/crewbot.db`. */
export function openSqliteStores(dataDir: string): OpenedStores {
  const queue = new SqliteQueue({ dataDir });
  let reviews: SqliteReviewStore;
  let ciFixRounds: SqliteCiFixRounds;
  try {
    reviews = new SqliteReviewStore({ dataDir });
    ciFixRounds = new SqliteCiFixRounds({ dataDir });
  } catch (err) {
    void queue.close();
    throw err;
  }
  return { queue, reviews, ciFixRounds, kind: "sqlite", close: () => closeBoth(queue, reviews, ciFixRounds) };
}

/** The installations ledger (coverage, usage, limits): Redis when `REDIS_URL` is set, else SQLite. */
export function openInstallations(env: StoreEnv, dataDir: string): InstallationStore & UsageLedger {
  return env.REDIS_URL ? new RedisInstallations({ url: env.REDIS_URL }) : new SqliteInstallations({ dataDir });
}

/** Transcripts: Redis when `REDIS_URL` is set (every process reads the same), else `<dataDir>/transcripts.db`. */
export function openTranscriptStore(env: StoreEnv, dataDir: string, days: number): TranscriptStore {
  return env.REDIS_URL
    ? new RedisTranscriptStore(new Redis(env.REDIS_URL, { maxRetriesPerRequest: 3 }), { days })
    : new SqliteTranscriptStore({ dataDir });
}

async function closeBoth(queue: JobQueue, reviews: ReviewStore, rounds?: CiFixRounds): Promise<void> {
  await Promise.allSettled([queue.close(), reviews.close(), rounds?.close()]);
}
