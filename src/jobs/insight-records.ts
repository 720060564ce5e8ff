/**
 * What jobs keep for a repository's figures (insights/events.ts) and count in the metrics: each
 * ended job with its cost, each posted review with its findings, and a pull request's first review.
 * A store that fails costs the job nothing: the figures miss one event, and a log line says so.
 */
import type { InsightEvent } from "../insights/events.js";
import type { JobRecord } from "../queue/types.js";
import type { JobResult } from "../queue/runner.js";
import type { StoredFinding } from "../review/review-store.js";
import type { JobServices } from "./services.js";

type Services = Pick<JobServices, "records" | "observe">;

const repoOf = (job: Pick<JobRecord, "target">): string => `${job.target.owner}/${job.target.repo}`;

async function keep(services: Services, repo: string, event: InsightEvent, jobId: string): Promise<boolean> {
  try {
    return (await services.records.insights?.put(repo, event)) ?? false;
  } catch (error) {
    warn(services, `job ${jobId}: the ${event.type} record for the repository's figures was not kept: ${(error as Error).message}`);
    return false;
  }
}

/** Figures are never worth a job: even a failing log leaves its end as it was. */
function warn(services: Services, message: string): void {
  try {
    services.observe.log.warn(message);
  } catch {
    // nothing more to do
  }
}

function count(services: Services, what: (metrics: Services["observe"]["metrics"]) => void): void {
  try {
    what(services.observe.metrics);
  } catch (error) {
    warn(services, `a quality metric was not counted: ${(error as Error).message}`);
  }
}

/** A job ended (a deferral or a wait is no end): its kind, end state and cost. */
export async function keepJobEnd(services: Services, job: JobRecord, result: JobResult | undefined, costUsd: number, at = Date.now()): Promise<void> {
  if (!result || result.state === "deferred" || result.state === "waiting") return;
  await keep(services, repoOf(job), { type: "job", key: job.id, at, kind: job.kind, state: result.state, costUsd }, job.id);
}

/** A review posted (findings or clean): counted, and the pull request's first review kept once with the time since it opened. */
export async function keepReviewPosted(services: Services, job: JobRecord, posted: readonly StoredFinding[], at = Date.now()): Promise<void> {
  const reproduced = posted.filter((f) => f.reproduced).length;
  const findings = { reproduced, unverified: posted.length - reproduced };
  const { number } = job.target;
  count(services, (m) => m.reviewPosted(findings));
  await keep(services, repoOf(job), { type: "review", key: job.id, at, number, findings }, job.id);
  const opened = Date.parse(job.subject?.createdAt ?? "");
  const openedAt = Number.isFinite(opened) && opened <= at ? opened : undefined;
  const first = await keep(services, repoOf(job), { type: "first-review", key: String(number), at, number, ...(openedAt !== undefined ? { openedAt } : {}) }, job.id);
  if (first && openedAt !== undefined) count(services, (m) => m.firstReviewAfter((at - openedAt) / 1000));
}
