// Start-up and shut-down. start() subscribes the audit trail and the notices, starts the session
// sweep and the dispatcher, and schedules the jobs; stop() undoes all of it in reverse, so a
// stopped platform leaves no subscription and no timer behind. Both are idempotent.

import { MINUTE } from "../../core/time.js";
import { guarded } from "./jobs.js";

export function createLifecycle(ctx, { parts, jobs }) {
  const handles = [];
  let startedAt = null;

  function start() {
    if (startedAt !== null) return false;
    for (const part of parts) part.start();
    for (const job of jobs) handles.push(ctx.scheduler.every(job.everyMinutes * MINUTE, guarded(ctx, job)));
    startedAt = ctx.clock.now();
    ctx.log("info", "platform started", { parts: parts.length, jobs: jobs.length });
    return true;
  }

  function stop() {
    if (startedAt === null) return false;
    while (handles.length) handles.pop().cancel();
    for (const part of [...parts].reverse()) part.stop();
    startedAt = null;
    ctx.log("info", "platform stopped");
    return true;
  }

  return { start, stop, started: () => startedAt !== null, startedAt: () => startedAt };
}
