// The reefer monitoring sweep: every quarter of an hour it reads every plugged box through the
// telemetry port (deps.reeferTelemetry.read(number) → { tempC } or null when the unit is silent),
// records the reading and lets the alarms decide. start() schedules it; stop() cancels it.

import { MINUTE } from "../../core/time.js";

export const SWEEP_MS = 15 * MINUTE;

export function createReeferMonitor(ctx, { stores, registry, readings, alarms, telemetry }) {
  let handle = null;

  function sweep() {
    let read = 0;
    for (const plug of stores.plugs.list()) {
      const container = registry.findContainer(plug.containerId);
      if (container === null) continue;
      const answer = telemetry.read(container.number);
      const tempC = answer && Number.isFinite(answer.tempC) ? answer.tempC : null;
      if (tempC !== null) readings.record(container.id, tempC);
      alarms.evaluate(container, tempC);
      read++;
    }
    readings.prune();
    ctx.log("debug", "reefer sweep", { read });
    return read;
  }

  function start() {
    if (handle) return;
    handle = ctx.scheduler.every(SWEEP_MS, sweep);
  }

  function stop() {
    handle?.cancel();
    handle = null;
  }

  return { sweep, start, stop, running: () => handle !== null };
}
