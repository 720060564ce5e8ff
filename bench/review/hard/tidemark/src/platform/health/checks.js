// The readiness checks, each { name, run() → { ok, detail } }. A check must be cheap: the load
// balancer asks every few seconds. Ports that can tell (a `ping()` on a dep) are asked too.

import { MINUTE } from "../../core/time.js";

export function dispatcherCheck(ctx, { dispatcher, settings }) {
  return {
    name: "dispatcher",
    run() {
      if (!dispatcher.running) return { ok: false, detail: "not started" };
      const last = dispatcher.lastRunAt();
      const staleAfter = settings.health.staleAfterMinutes * MINUTE;
      if (last !== null && ctx.clock.now() - last >= staleAfter) return { ok: false, detail: `last run ${Math.floor((ctx.clock.now() - last) / MINUTE)} minutes ago` };
      return { ok: true, detail: last === null ? "waiting for its first run" : "running" };
    },
  };
}

export function outboxCheck(ctx, { outbox, flags }) {
  return {
    name: "outbox",
    run() {
      const failed = outbox.countByStatus("failed");
      const queued = outbox.countByStatus("queued");
      const ok = !(flags.isOn("strictReadiness") && failed > 0);
      return { ok, detail: `${queued} queued, ${failed} failed` };
    },
  };
}

export function portCheck(name, port) {
  return {
    name: `port:${name}`,
    run() {
      try {
        const answer = port.ping();
        return { ok: answer !== false, detail: answer === false ? "not ready" : "ok" };
      } catch (error) {
        return { ok: false, detail: error.message };
      }
    },
  };
}

/** Ports handed to the platform that can answer ping(). */
export function portChecks(deps) {
  return Object.entries(deps)
    .filter(([, port]) => port && typeof port.ping === "function")
    .map(([name, port]) => portCheck(name, port));
}
