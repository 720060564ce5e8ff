/** The SQLite queue's rows: mapping a `jobs` row to a JobRecord. */
import { CORE_FIELDS } from "../../queue/new-job.js";
import type { JobKind, JobRecord, JobState, NewJob } from "../../queue/types.js";

export interface Row {
  seq: number;
  id: string;
  delivery_id: string;
  kind: JobKind;
  state: JobState;
  target_key: string;
  target_json: string;
  trigger_json: string;
  repo_json: string;
  extra_json: string | null;
  attempts: number;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  worker_id: string | null;
  lease_expires_at: number | null;
  progress_comment_id: number | null;
  agents_started: number;
  cancel_requested: number;
  cancelled_by: string | null;
  outcome: string | null;
  run_at: number;
  job_group: string | null;
  superseded_by: string | null;
}

export function toRecord(row: Row): JobRecord {
  const extra = row.extra_json === null ? {} : (JSON.parse(row.extra_json) as Record<string, unknown>);
  // Rows written before these fields had columns may carry them in the extra column: never trust them there.
  for (const k of CORE_FIELDS) delete extra[k];
  const job: JobRecord = {
    ...(extra as Partial<NewJob>),
    id: row.id,
    deliveryId: row.delivery_id,
    kind: row.kind,
    target: JSON.parse(row.target_json),
    trigger: JSON.parse(row.trigger_json),
    repo: JSON.parse(row.repo_json),
    state: row.state,
    attempts: row.attempts,
    createdAt: row.created_at,
    runAt: row.run_at,
  };
  if (row.job_group !== null) job.group = row.job_group;
  if (row.started_at !== null) job.startedAt = row.started_at;
  if (row.finished_at !== null) job.finishedAt = row.finished_at;
  if (row.progress_comment_id !== null) job.progressCommentId = row.progress_comment_id;
  if (row.agents_started) job.agentsStarted = true;
  if (row.outcome !== null) job.outcome = row.outcome;
  if (row.cancel_requested) job.cancelRequested = true;
  if (row.cancelled_by !== null) job.cancelledBy = row.cancelled_by;
  if (row.worker_id !== null) job.workerId = row.worker_id;
  if (row.lease_expires_at !== null) job.leaseExpiresAt = row.lease_expires_at;
  if (row.superseded_by !== null) job.supersededBy = row.superseded_by;
  return job;
}
