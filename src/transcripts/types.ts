/**
 * A job's transcript: what its agents did, as redacted entries stored with the job.
 * Full tool outputs stay in the job's artifacts; an entry keeps the tail and the artifact's name.
 */
import type { AgentEvent } from "../agent/events.js";
import type { JobKind } from "../queue/types.js";

export type TranscriptBody =
  | {
      type: "job_start";
      kind: JobKind;
      sender: string;
      request: string;
      repo: string;
      number: number;
      isPullRequest: boolean;
      title?: string;
    }
  | { type: "job_end"; terminal: "done" | "failed" | "cancelled" | "stopped"; outcome: string }
  /** `transcripts.public` of a public repository's config: the page opens without sign-in. */
  | { type: "visibility"; public: true }
  // The agents' events as they are, except tool_end, whose full output stays in the artifacts.
  | Exclude<AgentEvent, { type: "tool_end" }>
  | (Omit<Extract<AgentEvent, { type: "tool_end" }>, "output"> & {
      /** The end of the output (all of it when short). */
      output: string;
      /** Size of the whole output in bytes. */
      outputBytes: number;
      /** A file in the job's artifacts dir holding the whole output, when `output` is not all of it. */
      artifact?: string;
    });

/** One stored entry: `at` is epoch ms. */
export type TranscriptEntry = TranscriptBody & { at: number };

/** An entry as read back: `seq` orders a job's entries and is the cursor for `read(jobId, after)`. */
export type StoredEntry = TranscriptEntry & { seq: number };

export interface TranscriptStore {
  append(jobId: string, entries: TranscriptEntry[]): Promise<void>;
  /** The job's entries in order, only those after the cursor `after` (a `seq`) when given. */
  read(jobId: string, after?: number): Promise<StoredEntry[]>;
  /** Drops transcripts whose last entry is older than `before` (epoch ms); returns the job ids dropped when known. */
  prune(before: number): Promise<string[]>;
  close(): Promise<void>;
}
