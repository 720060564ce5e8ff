// The roster of one day: every live shift starting that day, with where and who, ordered the way
// the roster board is read (quay, berth, start, then gang and worker).

import { DAY, startOfDay } from "../../core/time.js";
import { byKeys, byNumber, byString } from "../../core/sort.js";
import { isLive } from "../records/shift.js";

const boardOrder = byKeys(byString("quay"), byString("berthId"), byNumber("start"), byString("gangKey"), byString("registrationNo"));

export function createRosterDay({ stores, ports, workers }) {
  return function rosterOfDay(day) {
    const from = startOfDay(day);
    const lines = [];
    for (const shift of stores.shifts.list((s) => isLive(s) && s.start >= from && s.start < from + DAY)) {
      const worker = workers.findWorker(shift.workerId);
      if (!worker) continue;
      const operation = ports.findOperation(shift.operationId);
      lines.push({
        shiftId: shift.id,
        start: shift.start,
        end: shift.end,
        quay: operation?.quay ?? "?",
        berthId: operation?.berthId ?? "?",
        vesselName: operation?.vesselName ?? "(operation gone)",
        workerId: worker.id,
        registrationNo: worker.registrationNo,
        name: worker.name,
        skill: shift.skill,
        gangId: shift.gangId,
        gangKey: shift.gangId ?? "~",
      });
    }
    return lines.toSorted(boardOrder);
  };
}
