import type { JobQueue } from "../queue/job-queue.js";
import type { JobRunner } from "../queue/runner.js";
import { targetKey, type JobRecord } from "../queue/types.js";
import { installationChange, type InstallationPayload } from "./events.js";
import type { InstallationStore } from "./types.js";

export interface InstallationEventDeps {
  installations: InstallationStore;
  queue: Pick<JobQueue, "listRecent">;
  runner: Pick<JobRunner, "cancel">;
  log: { info(obj: object, msg?: string): void };
}

/**
 * Records an installation event and cancels the jobs it leaves without access (an uninstall or
 * suspension: all of the installation's; removed repositories: theirs) — queued ones at once,
 * running ones through their runner. No token can write for them any more, so their comments
 * are not touched.
 */
export async function applyInstallationEvent(
  event: "installation" | "installation_repositories",
  payload: InstallationPayload,
  deps: InstallationEventDeps,
): Promise<number> {
  const change = installationChange(event, payload, await deps.installations.get(payload.installation.id));
  if (!change) return 0;
  await deps.installations.put(change.record);
  let cancelled = 0;
  if (change.cancel) {
    const scope = change.cancel;
    const affected = (job: JobRecord) =>
      job.target.installationId === payload.installation.id &&
      ("all" in scope || scope.repositories.some((r) => r.toLowerCase() === `${job.target.owner}/${job.target.repo}`.toLowerCase()));
    // Listings are capped; cancelled jobs leave the queued list, so go again until a pass finds none.
    for (let pass = 0; pass < 100; pass++) {
      const jobs = [...(await deps.queue.listRecent({ state: "queued", limit: 1000 })), ...(await deps.queue.listRecent({ state: "running", limit: 1000 }))].filter(affected);
      const targets = new Set(jobs.map((job) => targetKey(job.target)));
      let ended = 0;
      for (const key of targets) ended += (await deps.runner.cancel(key, payload.sender.login)).filter((j) => j.state === "cancelled").length;
      cancelled += ended;
      if (ended === 0) break; // running jobs are only flagged: their runners end them
    }
  }
  deps.log.info({ installationId: payload.installation.id, cancelled }, change.summary);
  return cancelled;
}
