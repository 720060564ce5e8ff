// Liveness says the process answers; readiness runs every check and is ready only when all pass.
// A check that throws counts as failed, with its message as the detail.

import { toIso } from "../../core/time.js";

export function createHealth(ctx, { checks, lifecycle }) {
  function readiness() {
    const results = [];
    if (!lifecycle.started()) results.push({ name: "started", ok: false, detail: "platform not started" });
    for (const check of checks) {
      try {
        results.push({ name: check.name, ...check.run() });
      } catch (error) {
        results.push({ name: check.name, ok: false, detail: error.message });
      }
    }
    return { ready: results.every((r) => r.ok), checks: results };
  }

  function liveness() {
    const startedAt = lifecycle.startedAt();
    return {
      status: "ok",
      port: ctx.config.port.code,
      at: toIso(ctx.clock.now()),
      startedAt: startedAt === null ? null : toIso(startedAt),
    };
  }

  return { readiness, liveness };
}
