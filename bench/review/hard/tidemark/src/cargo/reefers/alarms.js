// Reefer alarms. A box has at most one open alarm; it is raised when a reading leaves the band of
// its set-point (or the unit stops answering) and cleared by the first reading back in band.

import { REEFER_ALARM, REEFER_ALARM_CLEARED } from "../events.js";
import { deviationC, outOfBand } from "./setpoints.js";

export const ALARM_KINDS = Object.freeze(["high", "low", "silent"]);

export function createAlarms(ctx, stores) {
  const openAlarmOf = (containerId) =>
    stores.alarms.list((a) => a.containerId === containerId && a.clearedAt === null)[0] ?? null;

  function raise(container, kind, tempC) {
    const open = openAlarmOf(container.id);
    if (open && open.kind === kind) return open;
    if (open) clear(open);
    const alarm = stores.alarms.insert({
      id: stores.ids.alarm.next(),
      containerId: container.id,
      number: container.number,
      kind,
      tempC,
      setPointC: container.setPointC,
      raisedAt: ctx.clock.now(),
      clearedAt: null,
    });
    ctx.events.publish(REEFER_ALARM, { alarmId: alarm.id, containerId: container.id, kind });
    return alarm;
  }

  function clear(alarm) {
    const cleared = stores.alarms.update(alarm.id, (a) => ({ ...a, clearedAt: ctx.clock.now() }));
    ctx.events.publish(REEFER_ALARM_CLEARED, { alarmId: alarm.id, containerId: alarm.containerId });
    return cleared;
  }

  /** Applies one reading (null when the unit did not answer) and returns the box's open alarm, if any. */
  function evaluate(container, tempC) {
    if (tempC === null) return raise(container, "silent", null);
    if (outOfBand(container.setPointC, tempC)) {
      return raise(container, deviationC(container.setPointC, tempC) > 0 ? "high" : "low", tempC);
    }
    const open = openAlarmOf(container.id);
    if (open) clear(open);
    return null;
  }

  const openAlarms = () => stores.alarms.list((a) => a.clearedAt === null);

  return { evaluate, openAlarmOf, openAlarms };
}
