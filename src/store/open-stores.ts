/**
 * Chooses crewbot's durable stores: Redis when `REDIS_URL` is set (any number of app and worker
 * processes on any machines share it, every key under `REDIS_PREFIX`), else the embedded SQLite
 * files in the data directory. The rest of the app sees only the interfaces (`JobQueue`,
 * `ReviewStore`, `InstallationStore`, …); this file is the one place that opens them.
 */
import { Redis } from "ioredis";
import { operatorLimits } from "../installations/limits.js";
import type { InstallationStore, UsageLedger } from "../installations/types.js";
import { transcriptDays } from "../transcripts/index.js";
import type { TranscriptStore } from "../transcripts/types.js";
import type { SharedWriteBudget } from "../report/write-gate.js";
import type { AdmissionGate, RateLimit } from "../triggers/admission.js";
import type { CounterStore } from "../triggers/stranger-replies.js";
import { RedisSharedLimits } from "./redis/shared-limits.js";
import type { JobFileStore } from "../transcripts/job-files.js";
import { RedisJobFiles } from "./redis/job-files.js";
import { RedisInstallations } from "./redis/installations.js";
import { RedisTranscriptStore } from "./redis/transcripts.js";
import { SqliteInstallations } from "./sqlite/installations.js";
import { SqliteTranscriptStore } from "./sqlite/transcripts.js";
import type { CiFixRounds } from "../jobs/ci-fix-rounds.js";
import type { PauseStore } from "../review/pauses.js";
import { RedisPauses } from "./redis/pauses.js";
import { SqlitePauses } from "./sqlite/pauses.js";
import type { InsightsStore } from "../insights/events.js";
import { RedisInsights } from "./redis/insights.js";
import { SqliteInsights } from "./sqlite/insights.js";
import type { JobQueue } from "../queue/job-queue.js";
import { RedisCiFixRounds } from "./redis/ci-fix-rounds.js";
import { DEFAULT_REDIS_PREFIX, RedisQueue } from "./redis/job-queue.js";
import { RedisReviewStore } from "./redis/review-store.js";
import type { ReviewStore } from "../review/review-store.js";
import { SqliteCiFixRounds } from "./sqlite/ci-fix-rounds.js";
import { SqliteQueue } from "./sqlite/job-queue.js";
import { SqliteReviewStore } from "./sqlite/review-store.js";
import type { PrunableLearningsStore } from "../learnings/learnings-store.js";
import { RedisLearningsStore } from "./redis/learnings.js";
import { SqliteLearningsStore } from "./sqlite/learnings.js";

export interface OpenedStores {
  queue: JobQueue;
  reviews: ReviewStore;
  /** Learning candidates and the uses of merged learnings, per repository, in the same store. */
  learnings: PrunableLearningsStore;
  /** Automatic ci-fix rounds per pull request, in the same store. */
  ciFixRounds: CiFixRounds;
  /** Pull requests a writer paused (`/crewbot pause`), in the same store. */
  pauses: PauseStore;
  /** What a repository's figures are computed from (`/insights`, `/crewbot insights`), in the same store. */
  insights: InsightsStore;
  /** The installations ledger: coverage, usage, limits. */
  installations: InstallationStore & UsageLedger;
  /** Transcript entries (every process reads the same ones on Redis). */
  transcripts: TranscriptStore;
  /**
   * The limits every process shares (Redis): each installation's write budget, each person's
   * command limits and the deliveries seen. Absent with the embedded stores: one process keeps them in memory.
   */
  shared?: { writeBudget: SharedWriteBudget; admission(limit: RateLimit): AdmissionGate; replyCounters: CounterStore };
  /** Job files (artifacts, scratch files, the refused commits' patch) for every process (Redis); the data dir alone without. */
  jobFiles?: JobFileStore;
  kind: "sqlite" | "redis";
  /** Closes every store (each close may be called again). */
  close(): Promise<void>;
}

export interface StoreEnv {
  /** Set: the Redis stores at this url. */
  REDIS_URL?: string | undefined;
  /** The Redis key prefix (default `crewbot`): deployments sharing one Redis keep apart by it, in every key. */
  REDIS_PREFIX?: string | undefined;
  /** Days records are kept (their Redis keys expire then); a bad value stops the app, naming it. */
  CREWBOT_RETENTION_DAYS?: string | undefined;
  /** Older deployments' transcript retention (else CREWBOT_RETENTION_DAYS). */
  CREWBOT_TRANSCRIPT_DAYS?: string | undefined;
}

/** Letters, digits and `._:-`: never a SCAN glob character, never whitespace. */
const PREFIX = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;

/** `REDIS_PREFIX`, checked (a bad one stops the app, naming it), or the default. */
export function redisPrefix(env: StoreEnv): string {
  const prefix = env.REDIS_PREFIX?.trim();
  if (!prefix) return DEFAULT_REDIS_PREFIX;
  if (!PREFIX.test(prefix)) throw new Error("REDIS_PREFIX must be letters, digits and . _ : - (at most 100), starting with a letter or digit");
  return prefix;
}

/** Opens every store; with Redis, fails when the server cannot be reached. */
export async function openStores(env: StoreEnv, dataDir: string): Promise<OpenedStores> {
  const url = env.REDIS_URL?.trim();
  return url ? openRedisStores(env, url) : openSqliteStores(dataDir);
}

async function openRedisStores(env: StoreEnv, url: string): Promise<OpenedStores> {
  const prefix = redisPrefix(env);
  const retentionDays = operatorLimits({ CREWBOT_RETENTION_DAYS: env.CREWBOT_RETENTION_DAYS }).retentionDays;
  const opts = { url, prefix };
  const queue = await RedisQueue.connect(opts);
  const reviews = new RedisReviewStore({ ...opts, retentionDays });
  const ciFixRounds = new RedisCiFixRounds({ ...opts, retentionDays });
  const learnings = new RedisLearningsStore({ ...opts, retentionDays });
  const pauses = new RedisPauses({ ...opts, retentionDays });
  const insights = new RedisInsights({ ...opts, retentionDays });
  const installations = new RedisInstallations(opts);
  const transcriptRedis = new Redis(url, { maxRetriesPerRequest: 3 });
  transcriptRedis.on("error", () => {}); // a lost server shows up as the failing call's error
  const transcripts = new RedisTranscriptStore(transcriptRedis, { days: transcriptDays(env as NodeJS.ProcessEnv), prefix: `${prefix}:transcript:` });
  const limits = new RedisSharedLimits(opts);
  const shared = { writeBudget: limits, admission: (limit: RateLimit) => limits.admission(limit), replyCounters: limits.replyCounters() };
  const jobFiles = new RedisJobFiles({ ...opts, retentionDays });
  const all = [queue, reviews, ciFixRounds, pauses, insights, learnings, installations, transcripts, limits, jobFiles];
  return { queue, reviews, learnings, ciFixRounds, pauses, insights, installations, transcripts, shared, jobFiles, kind: "redis", close: () => closeAll(all) };
}

/** The embedded stores: `<dataDir>/crewbot.db` (queue, reviews, rounds, pauses, insights, learnings, installations) and `<dataDir>/transcripts.db`. */
export function openSqliteStores(dataDir: string): OpenedStores {
  const opened: Array<{ close(): Promise<void> }> = [];
  const open = <T extends { close(): Promise<void> }>(make: () => T): T => {
    const store = make();
    opened.push(store);
    return store;
  };
  try {
    const queue = open(() => new SqliteQueue({ dataDir }));
    const reviews = open(() => new SqliteReviewStore({ dataDir }));
    const ciFixRounds = open(() => new SqliteCiFixRounds({ dataDir }));
    const learnings = open(() => new SqliteLearningsStore({ dataDir }));
    const pauses = open(() => new SqlitePauses({ dataDir }));
    const insights = open(() => new SqliteInsights({ dataDir }));
    const installations = open(() => new SqliteInstallations({ dataDir }));
    const transcripts = open(() => new SqliteTranscriptStore({ dataDir }));
    return { queue, reviews, learnings, ciFixRounds, pauses, insights, installations, transcripts, kind: "sqlite", close: () => closeAll(opened) };
  } catch (err) {
    void closeAll(opened);
    throw err;
  }
}

async function closeAll(stores: Array<{ close(): Promise<void> }>): Promise<void> {
  await Promise.allSettled(stores.map((store) => store.close()));
}
