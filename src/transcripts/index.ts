/**
 * The transcripts of this process, in the store it is given (see store/open-stores.ts), kept `CREWBOT_RETENTION_DAYS` days
 * (default 30) after a job's last entry; pruned on start and hourly.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import { TranscriptRecorder } from "./recorder.js";
import type { TranscriptStore } from "./types.js";

export type { StoredEntry, TranscriptEntry, TranscriptStore } from "./types.js";
export { TranscriptRecorder } from "./recorder.js";

export const DEFAULT_TRANSCRIPT_DAYS = 30;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** `CREWBOT_TRANSCRIPT_DAYS` when set (older deployments), else `CREWBOT_RETENTION_DAYS`, else 30. */
export function transcriptDays(env: NodeJS.ProcessEnv): number {
  for (const name of ["CREWBOT_TRANSCRIPT_DAYS", "CREWBOT_RETENTION_DAYS"]) {
    const days = Number(env[name]);
    if (env[name] && Number.isFinite(days) && days > 0) return days;
  }
  return DEFAULT_TRANSCRIPT_DAYS;
}

export interface Transcripts {
  store: TranscriptStore;
  recorder: TranscriptRecorder;
  days: number;
  /** Drops expired transcripts (and their jobs' artifacts); returns how many. */
  prune(now?: number): Promise<number>;
  close(): Promise<void>;
}

export interface OpenTranscriptsOptions {
  env: NodeJS.ProcessEnv;
  dataDir: string;
  /** The operator's secrets, redacted from every entry. */
  secrets: string[];
  log?: { warn(message: string): void };
  /** Where entries are kept (`openTranscriptStore` chooses it from the environment). */
  store: TranscriptStore;
  /** Prune on open and hourly by itself. Default true; false where one retention sweep calls `prune` (the app and workers). */
  autoPrune?: boolean;
}

export function openTranscripts(options: OpenTranscriptsOptions): Transcripts {
  const { env, dataDir, log } = options;
  const days = transcriptDays(env);
  const { store } = options;
  const recorder = new TranscriptRecorder({ store, dataDir, secrets: options.secrets, log });

  const prune = async (now = Date.now()): Promise<number> => {
    const ids = await store.prune(now - days * 86_400_000);
    await Promise.all(
      ids.map((id) =>
        /^[A-Za-z0-9._-]+$/.test(id) && !id.includes("..")
          ? rm(path.join(dataDir, "jobs", id, "artifacts"), { recursive: true, force: true })
          : undefined,
      ),
    );
    return ids.length;
  };
  const pruneQuietly = () => void prune().catch((err: Error) => log?.warn(`pruning transcripts: ${err.message}`));
  let timer: NodeJS.Timeout | undefined;
  if (options.autoPrune !== false) {
    pruneQuietly();
    timer = setInterval(pruneQuietly, PRUNE_EVERY_MS);
    timer.unref();
  }

  return {
    store,
    recorder,
    days,
    prune,
    async close() {
      clearInterval(timer);
      await recorder.flush();
      await store.close();
    },
  };
}
