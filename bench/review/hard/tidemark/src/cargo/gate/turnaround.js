// Gate punctuality per haulier, from the appointments that were used: how many trucks came inside
// their slot and how late the others were. The gate manager reviews it weekly with the hauliers.

import { byKeys, byNumber, byString, descending } from "../../core/sort.js";
import { minutesLate, onTime } from "../records/appointment.js";

export function createTurnaround(stores) {
  /** One row per haulier over the used appointments whose slot started in [from, to). */
  function punctuality({ from, to }) {
    const rows = new Map();
    for (const a of stores.appointments.list((r) => r.status === "used" && r.window.start >= from && r.window.start < to)) {
      const row = rows.get(a.haulier) ?? { haulier: a.haulier, visits: 0, onTime: 0, minutesLate: 0 };
      row.visits++;
      if (onTime(a, a.usedAt)) row.onTime++;
      row.minutesLate += minutesLate(a, a.usedAt);
      rows.set(a.haulier, row);
    }
    return [...rows.values()]
      .map((r) => ({ ...r, onTimePermille: Math.round((r.onTime * 1000) / r.visits) }))
      .toSorted(byKeys(descending(byNumber("visits")), byString("haulier")));
  }

  /** Booked appointments whose slot is over and whose truck never came. */
  function noShows(now) {
    return stores.appointments.list((a) => a.status === "booked" && a.window.end <= now);
  }

  return { punctuality, noShows };
}
