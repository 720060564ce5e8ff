/**
 * What every queue backend checks and stores alike for a new job: its id, that it is well formed
 * (a bad job is refused before it is stored, whichever store), and the fields kept as one JSON
 * value beside the ones a backend indexes.
 */
import { randomBytes } from "node:crypto";
import { isJobKind } from "./job-kinds.js";
import { REVIEW_EVENTS, type NewJob, type ReviewRequest } from "./types.js";

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** 16 base32 characters, 80 random bits: ids sit in public comments and URLs, so they must not be guessable. */
export function newJobId(): string {
  // 32 divides 256, so `byte % 32` has no bias.
  return Array.from(randomBytes(16), (b) => BASE32[b % 32]).join("");
}

const isTime = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isText = (v: unknown): v is string => typeof v === "string" && v.length > 0;

export function validateNewJob(job: NewJob): void {
  if (typeof job.deliveryId !== "string" || !job.deliveryId) throw new TypeError("a job needs a delivery id");
  if (typeof job.kind !== "string" || !isJobKind(job.kind)) throw new TypeError(`unknown job kind: ${String(job.kind)}`);
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
  if (job.learn !== undefined) validateLearn(job.learn);
}

function validateLearn(l: NonNullable<NewJob["learn"]>): void {
  if (typeof l !== "object" || l === null || (l.action !== "propose" && l.action !== "list") || typeof l.automatic !== "boolean" || typeof l.reason !== "string") {
    throw new TypeError("a learn job's learn needs action (propose or list), automatic (a boolean) and reason (a string)");
  }
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
export const CORE_FIELDS = new Set([
  ...["deliveryId", "kind", "target", "trigger", "repo", "id", "state", "attempts", "createdAt", "startedAt"],
  ...["finishedAt", "progressCommentId", "agentsStarted", "outcome", "cancelRequested", "cancelledBy"],
  ...["workerId", "leaseExpiresAt", "runAt", "group", "supersededBy"],
]);

/** The job's other fields (`subject`, `review`, and whatever NewJob gains later) in one column: no migration per field. */
export function extraJson(job: NewJob): string | null {
  const extra = Object.fromEntries(Object.entries(job).filter(([k, v]) => !CORE_FIELDS.has(k) && v !== undefined));
  return Object.keys(extra).length ? JSON.stringify(extra) : null;
}
