/** The SQLite queue's rows: validating a new job, and mapping a `jobs` row to a JobRecord and back. */
import { REVIEW_EVENTS, type JobKind, type JobRecord, type JobState, type NewJob, type ReviewRequest } from "../../queue/types.js";

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

const KINDS: readonly string[] = ["plan", "implement", "review", "ci-fix"];

const isTime = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isText = (v: unknown): v is string => typeof v === "string" && v.length > 0;

export function validateNewJob(job: NewJob): void {
  if (typeof job.deliveryId !== "string" || !job.deliveryId) throw new TypeError("a job needs a delivery id");
  if (!KINDS.includes(job.kind)) throw new TypeError(`unknown job kind: ${String(job.kind)}`);
  const t = job.target;
  if (!Number.isSafeInteger(t?.installationId) || !Number.isSafeInteger(t.number) || !t.owner || !t.repo) {
    throw new TypeError("a job needs a target with installationId, owner, repo and number");
  }
  if (job.runAt !== undefined && !isTime(job.runAt)) throw new TypeError("runAt must be a time in epoch ms");
  if (job.group !== undefined && (!isText(job.group) || job.group.length > 100)) {
    throw new TypeError("group must be a non-empty string of at most 100 characters");
  }
  if (job.supersede !== undefined && typeof job.supersede !== "boolean") throw new TypeError("supersede must be a boolean");
  if (job.supersede && job.group === undefined) throw new TypeError("supersede needs a group");
  if (job.review !== undefined) validateReview(job.review);
}

function validateReview(r: ReviewRequest): void {
  const bad = (what: string) => new TypeError(`a review job's review needs ${what}`);
  if (typeof r !== "object" || r === null) throw bad("to be an object");
  if (typeof r.automatic !== "boolean") throw bad("automatic (a boolean)");
  if (!REVIEW_EVENTS.includes(r.event)) throw bad(`an event among ${REVIEW_EVENTS.join(", ")}`);
  for (const k of ["headSha", "headRef", "baseRef", "baseSha", "authorType"] as const) {
    if (!isText(r[k])) throw bad(`${k} (a non-empty string)`);
  }
  if (!isText(r.headRepo) || !/^[^/\s]+\/[^/\s]+$/.test(r.headRepo)) throw bad("headRepo as owner/repo");
  if (typeof r.draft !== "boolean") throw bad("draft (a boolean)");
  if (!Array.isArray(r.labels) || !r.labels.every((l) => typeof l === "string")) throw bad("labels (strings)");
  if (r.authorAssociation !== undefined && !isText(r.authorAssociation)) throw bad("authorAssociation (a non-empty string) when set");
  if (!isTime(r.eventAt)) throw bad("eventAt (epoch ms)");
}

/** Fields with their own columns, or that the queue alone sets: never taken from the extra column. */
const CORE_FIELDS = new Set([
  ...["deliveryId", "kind", "target", "trigger", "repo", "id", "state", "attempts", "createdAt", "startedAt"],
  ...["finishedAt", "progressCommentId", "agentsStarted", "outcome", "cancelRequested", "cancelledBy"],
  ...["workerId", "leaseExpiresAt", "runAt", "group", "supersededBy"],
]);

/** The job's other fields (`subject`, `review`, and whatever NewJob gains later) in one column: no migration per field. */
export function extraJson(job: NewJob): string | null {
  const extra = Object.fromEntries(Object.entries(job).filter(([k, v]) => !CORE_FIELDS.has(k) && v !== undefined));
  return Object.keys(extra).length ? JSON.stringify(extra) : null;
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
