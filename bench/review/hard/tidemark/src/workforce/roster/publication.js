// The daily roster publication: at 14:00 UTC the next day's roster goes out (stored and announced
// on the event bus). start() schedules it through ctx.scheduler; the module's stop() cancels it.

import { DAY, MINUTE, startOfDay } from "../../core/time.js";
import { EVENTS } from "../events.js";
import { formatRoster } from "./format.js";

export const PUBLISH_AT_MINUTES = 14 * 60;

export function createPublication({ ctx, stores, life, rosterOfDay }) {
  const { publications, ids } = stores;

  function publish(day = startOfDay(ctx.clock.now()) + DAY) {
    const lines = rosterOfDay(day);
    const record = publications.insert({
      id: ids.publications.next(),
      day,
      publishedAt: ctx.clock.now(),
      shiftIds: lines.map((l) => l.shiftId),
      text: formatRoster(day, lines),
    });
    ctx.events.publish(EVENTS.rosterPublished, { publicationId: record.id, day, shifts: lines.length });
    return record;
  }

  /** The latest publication for a day, or null. */
  const latestFor = (day) => publications.list((p) => p.day === startOfDay(day)).at(-1) ?? null;

  function start() {
    const now = ctx.clock.now();
    let first = startOfDay(now) + PUBLISH_AT_MINUTES * MINUTE;
    if (first <= now) first += DAY;
    life.track(
      ctx.scheduler.after(first - now, () => {
        publish();
        life.track(ctx.scheduler.every(DAY, () => publish()));
      }),
    );
  }

  return { publish, latestFor, start };
}
