/**
 * The Redis queue's records: crewbot's own state of a job in the hash `<prefix>:job:<id>`, mapped to a
 * JobRecord and back.
 *
 * Hash fields: id, seq, deliveryId, kind, state, tkey (targetKey), inst (installation id), data (JSON:
 * target, trigger, repo), extra (JSON: the job's other fields, as SqliteQueue's extra column), attempts,
 * createdAt, runAt, group, startedAt, finishedAt, workerId, leaseMs, leaseExpiresAt, progressCommentId,
 * agentsStarted ('1'), cancelRequested ('1'), cancelledBy, outcome, supersededBy, wait (JSON: a JobWait without its
 * answer), waitAnswer (JSON: its answer, once given).
 */
import type { JobKind, JobRecord, JobState, JobTarget, JobTrigger, NewJob, RepoInfo } from "../../queue/types.js";
import type { JobWait, WaitAnswer } from "../../queue/wait.js";

/** A reply of HGETALL: field, value, field, value… */
export type FlatHash = string[];

interface StoredData {
  target: JobTarget;
  trigger: JobTrigger;
  repo: RepoInfo;
}

export function dataJson(job: NewJob): string {
  const data: StoredData = { target: job.target, trigger: job.trigger, repo: job.repo };
  return JSON.stringify(data);
}

function toObject(flat: FlatHash): Record<string, string> {
  const h: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) h[flat[i]!] = flat[i + 1]!;
  return h;
}

const num = (v: string | undefined): number | undefined => (v === undefined || v === "" ? undefined : Number(v));

export function fromHash(flat: FlatHash): JobRecord {
  const h = toObject(flat);
  const data = JSON.parse(h.data!) as StoredData;
  const extra = h.extra ? (JSON.parse(h.extra) as Partial<NewJob>) : {};
  const job: JobRecord = {
    ...extra,
    id: h.id!,
    deliveryId: h.deliveryId!,
    kind: h.kind as JobKind,
    target: data.target,
    trigger: data.trigger,
    repo: data.repo,
    state: h.state as JobState,
    attempts: Number(h.attempts),
    createdAt: Number(h.createdAt),
    runAt: Number(h.runAt),
  };
  if (h.group !== undefined) job.group = h.group;
  const startedAt = num(h.startedAt);
  if (startedAt !== undefined) job.startedAt = startedAt;
  const finishedAt = num(h.finishedAt);
  if (finishedAt !== undefined) job.finishedAt = finishedAt;
  const pc = num(h.progressCommentId);
  if (pc !== undefined) job.progressCommentId = pc;
  if (h.agentsStarted === "1") job.agentsStarted = true;
  if (h.outcome !== undefined) job.outcome = h.outcome;
  if (h.cancelRequested === "1") job.cancelRequested = true;
  if (h.cancelledBy !== undefined) job.cancelledBy = h.cancelledBy;
  if (h.workerId !== undefined) job.workerId = h.workerId;
  const lease = num(h.leaseExpiresAt);
  if (lease !== undefined) job.leaseExpiresAt = lease;
  if (h.supersededBy !== undefined) job.supersededBy = h.supersededBy;
  if (h.wait) job.wait = { ...(JSON.parse(h.wait) as JobWait), ...(h.waitAnswer ? { answer: JSON.parse(h.waitAnswer) as WaitAnswer } : {}) };
  return job;
}

/** A script's reply that may be a job or nothing (false becomes null). */
export const maybeRecord = (reply: unknown): JobRecord | undefined =>
  Array.isArray(reply) && reply.length ? fromHash(reply as FlatHash) : undefined;

export const records = (reply: unknown): JobRecord[] => (reply as FlatHash[]).map(fromHash);
